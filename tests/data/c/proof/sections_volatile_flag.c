/* sections_handoff.c with the flag a plain volatile int and no flush or atomic (as
 * older producer/consumer codes write it): the compute section reads what the I/O section
 * writes, so they can run only side by side; with one thread the reader spins for ever.
 * The region's thread count stays as written, the loop's schedule may vary. */
#include <stdio.h>

#define NPTS 100000

static double field[NPTS];

int main(void)
{
    volatile int ready = 0;
    double scale = 0.0, used = 0.0;
#pragma omp parallel num_threads(2)
    {
#pragma omp sections
        {
#pragma omp section
            {
                int seen = 0;
                while (!seen) {
                    seen = ready;
                }
                used = scale;
            }
#pragma omp section
            {
                scale = 0.5;
                ready = 1;
            }
        }
#pragma omp for
        for (int i = 0; i < NPTS; i++)
            field[i] = used * i;
    }
    double total = 0.0;
    for (int i = 0; i < NPTS; i++)
        total += field[i];
    printf("total %.17g\n", total);
    return 0;
}

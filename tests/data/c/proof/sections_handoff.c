/* A two-stage pipeline in sections (an I/O stage hands a scale factor to a compute
 * stage through a flag, as producer/consumer codes do), then a loop using it. With two
 * threads the sections run side by side; with one they run one after the other, and the
 * stage spinning on the flag waits for ever: the region's thread count is not the
 * loop's to change, its schedule is. */
#include <stdio.h>

#define NPTS 100000

static double field[NPTS];

int main(void)
{
    int ready = 0;
    double scale = 0.0, used = 0.0;
#pragma omp parallel num_threads(2)
    {
#pragma omp sections
        {
#pragma omp section
            {
                int seen = 0;
                while (!seen) {
#pragma omp atomic read
                    seen = ready;
                }
#pragma omp flush
                used = scale;
            }
#pragma omp section
            {
                scale = 0.5;
#pragma omp flush
#pragma omp atomic write
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

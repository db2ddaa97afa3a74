/* A setup step split between two threads: the master waits on a flag (a plain volatile
 * int) that a later 'single nowait' sets with the scale, then the team computes. With
 * two threads the other thread takes the single; with one the master spins for ever
 * before the single is ever reached. The loop's schedule may vary, not the region's
 * thread count. */
#include <stdio.h>

#define NPTS 100000

static double field[NPTS];

int main(void)
{
    volatile int ready = 0;
    double scale = 0.0;
#pragma omp parallel num_threads(2)
    {
#pragma omp master
        {
            while (!ready)
                ;
        }
#pragma omp single nowait
        {
            scale = 3.0;
            ready = 1;
        }
#pragma omp barrier
#pragma omp for
        for (int i = 0; i < NPTS; i++)
            field[i] = scale * i;
    }
    double total = 0.0;
    for (int i = 0; i < NPTS; i++)
        total += field[i];
    printf("total %.17g\n", total);
    return 0;
}

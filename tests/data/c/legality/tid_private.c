/* Per-thread partial sums through a thread number kept in a private variable
   (a hand-written reduction that prints each thread's share). */
#include <stdio.h>
#include <omp.h>

#define N 40000
#define MAXT 64
static double part[MAXT];

int main(void)
{
#pragma omp parallel
    {
        int me = omp_get_thread_num();
#pragma omp for schedule(static)
        for (int i = 0; i < N; i++)
            part[me] += 1.0 / (1.0 + i);
    }
    for (int t = 0; t < MAXT; t++)
        if (part[t] != 0.0)
            printf("thread %d: %.10f\n", t, part[t]);
    return 0;
}

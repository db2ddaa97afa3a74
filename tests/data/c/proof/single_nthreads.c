/* A team size stored by a single construct and read by the loop. */
#include <stdio.h>
#include <omp.h>
#define N 1000
static int share[N];

int main(void)
{
    int nthr = 1;
#pragma omp parallel
    {
#pragma omp single
        nthr = omp_get_num_threads();
#pragma omp for
        for (int i = 0; i < N; i++)
            share[i] = i % nthr;
    }
    long s = 0;
    for (int i = 0; i < N; i++)
        s += share[i] * (i % 11);
    printf("%ld\n", s);
    return 0;
}

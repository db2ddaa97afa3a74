/* Per-thread partial sums indexed by thread id (a hand-written reduction). */
#include <stdio.h>
#include <omp.h>

#define N 100000
#define MAXT 256
static double part[MAXT];

int main(void)
{
    double total = 0.0;
#pragma omp parallel for schedule(static)
    for (int i = 0; i < N; i++)
        part[omp_get_thread_num()] += 1.0 / (1.0 + i);
    for (int t = 0; t < MAXT; t++)
        total += part[t];
    printf("%.12f\n", total);
    return 0;
}

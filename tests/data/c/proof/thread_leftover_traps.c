/* What each thread's own iterations left in its copy, read by a later loop: a count of
   the cells each thread updated (a per-thread load report spread over the next sweep),
   and the last row each thread touched. The counts and rows differ between threads, so
   which thread runs an iteration of the later loop decides what it writes. */
#include <stdio.h>

#define N 4001

static double a[N], b[N];

int main(void)
{
    for (int i = 0; i < N; i++)
        b[i] = i % 17;
    int total = 0;
#pragma omp parallel num_threads(3)
    {
        int mine = 0;
#pragma omp for
        for (int i = 0; i < N; i++)
            mine++;
#pragma omp atomic
        total += mine;
#pragma omp for
        for (int i = 0; i < N; i++)
            a[i] = b[i] + mine;
    }
    double s = 0.0;
    for (int i = 0; i < N; i++)
        s += a[i] * i;
#pragma omp parallel num_threads(3)
    {
        int last = -1;
#pragma omp for
        for (int i = 0; i < N; i++)
            last = i;
#pragma omp for
        for (int i = 0; i < N; i++)
            a[i] = b[i] * 0.5 + last;
    }
    for (int i = 0; i < N; i++)
        s += a[i] * (i % 5 + 1);
    printf("%d %.1f\n", total, s);
    return 0;
}

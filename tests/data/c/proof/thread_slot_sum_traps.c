/* Rows of per-thread partials read one by one after the region although a loop runs
 * over all of them: a total reset in each pass (the last row), a running total kept per
 * row, rows added only when positive, a loop left at the first row. Each is kept. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N 4000

static double x[N];
static double prefix[64];

int main(void)
{
    for (int i = 0; i < N; i++)
        x[i] = (i % 13) - 6.0;
    int nt = omp_get_max_threads();
    double *a = calloc(nt, sizeof(double));
    double *b = calloc(nt, sizeof(double));
    double *c = calloc(nt, sizeof(double));
    double *d = calloc(nt, sizeof(double));
#pragma omp parallel
    {
        int tid = omp_get_thread_num();
#pragma omp for
        for (int i = 0; i < N; i++)
            a[tid] += x[i] * (i % 3);
#pragma omp for
        for (int i = 0; i < N; i++)
            b[tid] += x[i];
#pragma omp for
        for (int i = 0; i < N; i++)
            c[tid] += x[i] * (i % 5);
#pragma omp for
        for (int i = 0; i < N; i++)
            d[tid] += x[i] * (i % 7);
    }
    double last = 0.0, running = 0.0, positive = 0.0, first = 0.0;
    for (int t = 0; t < nt; t++) {
        last = 0.0;
        last += a[t];
    }
    for (int t = 0; t < nt && t < 64; t++) {
        running += b[t];
        prefix[t] = running;
    }
    for (int t = 0; t < nt; t++)
        if (c[t] > 0.0)
            positive += c[t];
    for (int t = 0; t < nt; t++) {
        first += d[t];
        break;
    }
    printf("%.1f %.1f %.1f %.1f\n", last, prefix[0], positive, first);
    return 0;
}

/* Streaming vector triad a[i] = b[i] + s*c[i], repeated REPS times.
 * Memory-bound: three arrays of N doubles, 24 bytes moved per 2 flops. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#ifndef N
#define N 2000000
#endif
#ifndef REPS
#define REPS 20
#endif

static double a[N], b[N], c[N];

static void init(void)
{
    int i;
    for (i = 0; i < N; i++) {
        a[i] = 0.0;
        b[i] = 1.0 + (double)(i % 1000) * 1.0e-3;
        c[i] = 2.0 - (double)(i % 777) * 1.0e-3;
    }
}

static void triad(void)
{
    int r, i;
    for (r = 0; r < REPS; r++) {
        double s = 0.5 + 0.125 * (double)(r % 4);
#pragma omp parallel for
        for (i = 0; i < N; i++)
            a[i] = b[i] + s * c[i];
    }
}

int main(void)
{
    double sum = 0.0;
    int i;
    init();
    triad();
    for (i = 0; i < N; i++)
        sum += a[i] * (double)(1 + i % 7);
    printf("checksum: %.12e\n", sum);
    return 0;
}

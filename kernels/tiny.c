/* Tiny trip count: a parallel loop of M cheap iterations inside a repeat
 * loop of REPS. Fork/join overhead dominates; one thread is fastest. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#ifndef M
#define M 16
#endif
#ifndef REPS
#define REPS 100000
#endif

static double v[M], w[M];

static void relax(void)
{
    int r, i;
    for (r = 0; r < REPS; r++) {
#pragma omp parallel for
        for (i = 0; i < M; i++)
            v[i] = 0.5 * v[i] + w[i];
    }
}

int main(void)
{
    double sum = 0.0;
    int i;
    for (i = 0; i < M; i++) {
        v[i] = 0.0;
        w[i] = 1.0 + (double)i * 0.25;
    }
    relax();
    for (i = 0; i < M; i++)
        sum += v[i] * (double)(i + 1);
    printf("checksum: %.12e\n", sum);
    return 0;
}

/* Compute-bound: every element runs K steps of sqrt/exp/sin; tiny footprint. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <omp.h>

#ifndef N
#define N 60000
#endif
#ifndef K
#define K 128
#endif

static double out[N];

static void compute(void)
{
    int i, k;
#pragma omp parallel for private(k)
    for (i = 0; i < N; i++) {
        double v = 1.0 + (double)i / (double)N;
        for (k = 0; k < K; k++)
            v = sqrt(v + 1.0) + sin(v) * exp(-0.1 * v);
        out[i] = v;
    }
}

int main(void)
{
    double sum = 0.0;
    int i;
    compute();
    for (i = 0; i < N; i++)
        sum += out[i];
    printf("checksum: %.12e\n", sum);
    return 0;
}

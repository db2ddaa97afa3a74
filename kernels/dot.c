/* Dot product with a reduction, repeated REPS times.
 * Memory-bound with a reduction: two arrays of N doubles. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#ifndef N
#define N 4000000
#endif
#ifndef REPS
#define REPS 10
#endif

static double x[N], y[N];

static double dot(void)
{
    double sum = 0.0;
    int i;
#pragma omp parallel for reduction(+:sum)
    for (i = 0; i < N; i++)
        sum += x[i] * y[i];
    return sum;
}

int main(void)
{
    double total = 0.0;
    int i, r;
    for (i = 0; i < N; i++) {
        x[i] = 1.0 + (double)(i % 101) * 0.01;
        y[i] = 0.5 + (double)(i % 37) * 0.02;
    }
    for (r = 0; r < REPS; r++) {
        x[r] += 1.0; /* each repetition sees slightly different data */
        total += dot();
    }
    printf("checksum: %.12e\n", total);
    return 0;
}

/* A STREAM-style memory bandwidth kernel (copy, scale, add, triad), written for
 * the autotune campaign example and tests in the manner of McCalpin's benchmark: sizes are
 * macros a build sets with -D, every kernel is a "parallel for" over N, and the
 * program prints checksums that a correct variant reproduces exactly. */
#include <stdio.h>
#include <stdlib.h>

#ifndef STREAM_ARRAY_SIZE
#define STREAM_ARRAY_SIZE 200000
#endif
#ifndef NTIMES
#define NTIMES 4
#endif
#define STREAM_TYPE double

static STREAM_TYPE a[STREAM_ARRAY_SIZE], b[STREAM_ARRAY_SIZE], c[STREAM_ARRAY_SIZE];

int main(void)
{
    ssize_t j;
    int k;
    STREAM_TYPE scalar = 3.0;

#pragma omp parallel for
    for (j = 0; j < STREAM_ARRAY_SIZE; j++) {
        a[j] = 1.0;
        b[j] = 2.0;
        c[j] = 0.0;
    }
    for (k = 0; k < NTIMES; k++) {
#pragma omp parallel for
        for (j = 0; j < STREAM_ARRAY_SIZE; j++)
            c[j] = a[j];
#pragma omp parallel for
        for (j = 0; j < STREAM_ARRAY_SIZE; j++)
            b[j] = scalar * c[j];
#pragma omp parallel for
        for (j = 0; j < STREAM_ARRAY_SIZE; j++)
            c[j] = a[j] + b[j];
#pragma omp parallel for
        for (j = 0; j < STREAM_ARRAY_SIZE; j++)
            a[j] = b[j] + scalar * c[j];
    }
    STREAM_TYPE asum = 0.0, bsum = 0.0, csum = 0.0;
    for (j = 0; j < STREAM_ARRAY_SIZE; j++) {
        asum += a[j];
        bsum += b[j];
        csum += c[j];
    }
    printf("Solution checksums: a %.6e b %.6e c %.6e\n", asum, bsum, csum);
    return 0;
}

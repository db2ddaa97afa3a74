/* Histogram with an atomic update per element: cheap hashing work, the
 * shared bins serialise threads that hit the same cache line. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#ifndef N
#define N 16000000
#endif
#ifndef BINS
#define BINS 256
#endif

static long hist[BINS];

static unsigned int mix(unsigned int v)
{
    v ^= v >> 16;
    v *= 0x7feb352du;
    v ^= v >> 15;
    v *= 0x846ca68bu;
    v ^= v >> 16;
    return v;
}

static void histogram(void)
{
    int i;
#pragma omp parallel for
    for (i = 0; i < N; i++) {
        unsigned int h = mix((unsigned int)i);
        /* skewed: low bins are hit far more often than high ones */
        int bin = (int)((h % BINS) * (h % BINS) / BINS);
#pragma omp atomic
        hist[bin]++;
    }
}

int main(void)
{
    double sum = 0.0;
    int b;
    histogram();
    for (b = 0; b < BINS; b++)
        sum += (double)hist[b] * (double)(b + 1);
    printf("checksum: %.12e\n", sum);
    return 0;
}

/* Two parallel sections of different, varying work, repeated REPS times:
 * section A counts Collatz steps over a sliding range (irregular integer
 * work), section B sums a series whose length changes every repetition. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <omp.h>

#ifndef NA
#define NA 40000
#endif
#ifndef NB
#define NB 2000000
#endif
#ifndef REPS
#define REPS 12
#endif

static long res_a[REPS];
static double res_b[REPS];

static long collatz_range(long first, long count)
{
    long total = 0, n;
    for (n = first; n < first + count; n++) {
        unsigned long v = (unsigned long)n;
        while (v != 1u) {
            v = (v & 1u) ? 3u * v + 1u : v >> 1;
            total++;
        }
    }
    return total;
}

static double series(long terms, int r)
{
    double s = 0.0;
    long k;
    for (k = 1; k <= terms; k++)
        s += sqrt((double)(k + r)) / (double)(k * k);
    return s;
}

int main(void)
{
    double sum = 0.0;
    int r;
    for (r = 0; r < REPS; r++) {
        /* B's length varies between NB/2 and NB over the repetitions */
        long terms_b = NB / 2 + (long)((r * 385079L) % (NB / 2));
#pragma omp parallel sections
        {
#pragma omp section
            res_a[r] = collatz_range(1 + (long)r * NA, NA);
#pragma omp section
            res_b[r] = series(terms_b, r);
        }
    }
    for (r = 0; r < REPS; r++)
        sum += (double)res_a[r] + res_b[r];
    printf("checksum: %.12e\n", sum);
    return 0;
}

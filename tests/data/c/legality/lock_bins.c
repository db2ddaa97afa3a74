/* A histogram with one OpenMP lock per bin, as codes that count into shared bins do:
   each count of a bin is made holding that bin's lock, so two counts of one bin never
   overlap and the counts commute. The second histogram also counts each value into the
   next bin (a smoothed tally) under the value's own bin lock: that lock does not guard
   the next bin, which another thread may be counting into under its own lock. That
   version runs only when asked (an argument). */
#include <stdio.h>
#include <omp.h>
#define N 300000
#define BINS 256

static double v[N];
static long hist[BINS + 1], tally[BINS + 1];
static omp_lock_t bin_lock[BINS + 1];

int main(int argc, char **argv)
{
    int i, b;
    long check = 0;
    for (b = 0; b <= BINS; b++)
        omp_init_lock(&bin_lock[b]);
    for (i = 0; i < N; i++)
        v[i] = ((i % 1000) * 7919 % 1000) / 1000.0;
#pragma omp parallel for
    for (i = 0; i < N; i++) {
        int bin = (int)(v[i] * BINS);
        omp_set_lock(&bin_lock[bin]);
        hist[bin] += 2;
        if (v[i] > 0.5)
            hist[bin]++;
        omp_unset_lock(&bin_lock[bin]);
    }
#pragma omp parallel for if (argc > 1)
    for (i = 0; i < N; i++) {
        int bin = (int)(v[i] * BINS);
        omp_set_lock(&bin_lock[bin]);
        tally[bin]++;
        tally[bin + 1]++;
        omp_unset_lock(&bin_lock[bin]);
    }
    for (b = 0; b <= BINS; b++) {
        check += (hist[b] + 3 * tally[b]) * (b + 1);
        omp_destroy_lock(&bin_lock[b]);
    }
    printf("check %ld\n", check);
    return 0;
}

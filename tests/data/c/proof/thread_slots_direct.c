/* Per-thread partials indexed by the thread number where it is read, as simple codes
 * write them: a sum kept in one slot per thread of a combined parallel for, a
 * per-thread histogram with a row per thread, and integer counts through a thread
 * number held in a variable of the region. The slots are as many as the team can be
 * (omp_get_max_threads()), and summed over all of them after the loop. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N 40000
#define BINS 16

static double x[N];
static int key[N];

static double slot_sum(void)
{
    int nt = omp_get_max_threads();
    double *part = calloc(nt, sizeof(double));
    double s = 0.0;
    if (part == NULL)
        return 0.0;
#pragma omp parallel for schedule(static)
    for (int i = 0; i < N; i++)
        part[omp_get_thread_num()] += 0.5 * x[i];
    for (int t = 0; t < nt; t++)
        s += part[t];
    free(part);
    return s;
}

static long histogram(long *total)
{
    int nt = omp_get_max_threads();
    long **hist = malloc(nt * sizeof(long *));
    if (hist == NULL)
        return 0;
    for (int t = 0; t < nt; t++)
        hist[t] = calloc(BINS, sizeof(long));
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        hist[omp_get_thread_num()][key[i] % BINS]++;
    long peak = 0;
    for (int b = 0; b < BINS; b++) {
        long c = 0;
        for (int t = 0; t < nt; t++)
            c += hist[t][b];
        total[b] = c;
        peak = c > peak ? c : peak;
    }
    for (int t = 0; t < nt; t++)
        free(hist[t]);
    free(hist);
    return peak;
}

static long counted(void)
{
    int nt = omp_get_max_threads();
    long *cnt = calloc(nt, sizeof(long));
    long all = 0;
    if (cnt == NULL)
        return 0;
#pragma omp parallel
    {
        int tid = omp_get_thread_num();
#pragma omp for schedule(dynamic, 64)
        for (int i = 0; i < N; i++)
            cnt[tid] += key[i] % 3 == 0;
    }
    for (int t = 0; t < nt; t++)
        all += cnt[t];
    free(cnt);
    return all;
}

int main(void)
{
    long total[BINS];
    for (int i = 0; i < N; i++) {
        x[i] = (i % 101) * 0.25;
        key[i] = (i * 7919) % 1009;
    }
    double s = slot_sum();
    long peak = histogram(total);
    long c = counted();
    printf("%.3f %ld %ld %ld %ld\n", s, peak, total[3], total[BINS - 1], c);
    return 0;
}

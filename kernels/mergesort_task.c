/* Recursive merge sort with OpenMP tasks down to depth CUTOFF, then
 * sequential recursion; the sorted order is checked by a parallel loop. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>

#ifndef N
#define N 2000000
#endif
#ifndef CUTOFF
#define CUTOFF 4
#endif
#ifndef SMALL
#define SMALL 32
#endif

static unsigned int lcg_state = 2463534242u;

static unsigned int lcg(void)
{
    lcg_state = lcg_state * 1103515245u + 12345u;
    return lcg_state >> 4;
}

static void insertion_sort(int *a, long lo, long hi)
{
    long i, j;
    for (i = lo + 1; i < hi; i++) {
        int v = a[i];
        for (j = i; j > lo && a[j - 1] > v; j--)
            a[j] = a[j - 1];
        a[j] = v;
    }
}

static void merge(int *a, int *tmp, long lo, long mid, long hi)
{
    long i = lo, j = mid, k = lo;
    while (i < mid && j < hi)
        tmp[k++] = (a[j] < a[i]) ? a[j++] : a[i++];
    while (i < mid)
        tmp[k++] = a[i++];
    while (j < hi)
        tmp[k++] = a[j++];
    memcpy(a + lo, tmp + lo, (size_t)(hi - lo) * sizeof *a);
}

static void msort(int *a, int *tmp, long lo, long hi, int depth)
{
    long mid;
    if (hi - lo <= SMALL) {
        insertion_sort(a, lo, hi);
        return;
    }
    mid = lo + (hi - lo) / 2;
    if (depth < CUTOFF) {
#pragma omp task
        msort(a, tmp, lo, mid, depth + 1);
#pragma omp task
        msort(a, tmp, mid, hi, depth + 1);
#pragma omp taskwait
    } else {
        msort(a, tmp, lo, mid, depth + 1);
        msort(a, tmp, mid, hi, depth + 1);
    }
    merge(a, tmp, lo, mid, hi);
}

int main(void)
{
    int *a = malloc((size_t)N * sizeof *a);
    int *tmp = malloc((size_t)N * sizeof *tmp);
    double sum = 0.0;
    long i, unsorted = 0;
    if (!a || !tmp) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    for (i = 0; i < N; i++)
        a[i] = (int)(lcg() % 1000000u);
#pragma omp parallel
    {
#pragma omp single
        msort(a, tmp, 0, N, 0);
    }
#pragma omp parallel for reduction(+:unsorted)
    for (i = 1; i < N; i++)
        if (a[i - 1] > a[i])
            unsorted++;
    if (unsorted != 0) {
        fprintf(stderr, "mergesort_task: %ld pairs out of order\n", unsorted);
        return 1;
    }
    for (i = 0; i < N; i++)
        sum += (double)a[i] * (double)(1 + i % 5);
    printf("checksum: %.12e\n", sum);
    free(a);
    free(tmp);
    return 0;
}

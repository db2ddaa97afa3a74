/* Sorts whose iterations meet: a comparison that counts how often it ran into a shared
   total (read back as a statistic, and used to pick a pivot), and segments of one
   array sorted in place that overlap their neighbours by one element. */
#include <stdio.h>
#include <stdlib.h>

#define N 4000
#define SEG 8

static long compares;
static int v[N + 1], pick[N / SEG];

static int counting_cmp(const void *a, const void *b)
{
    compares++;
    return *(const int *)a - *(const int *)b;
}

static int cmp_int(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

int main(void)
{
    int i;
    for (i = 0; i <= N; i++)
        v[i] = (i * 7919) % 1009;
#pragma omp parallel for
    for (i = 0; i < N / SEG; i++) {
        int w[SEG];
        for (int k = 0; k < SEG; k++)
            w[k] = v[i * SEG + k];
        qsort(w, SEG, sizeof w[0], counting_cmp);
        pick[i] = w[compares % SEG];
    }
#pragma omp parallel for
    for (i = 0; i < N / SEG; i++)
        qsort(&v[i * SEG], SEG + 1, sizeof v[0], cmp_int);
    long h = 0;
    for (i = 0; i <= N; i++)
        h = h * 3 + v[i];
    for (i = 0; i < N / SEG; i++)
        h += pick[i];
    printf("%ld %ld\n", h, compares);
    return 0;
}

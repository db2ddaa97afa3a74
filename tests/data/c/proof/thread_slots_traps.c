/* Rows of per-thread partials whose values the program does see one by one: a row read
 * alone, a sum over fewer rows than the team has, two threads on one row, a row
 * rescaled in the loop, rows combined by a maximum, a row kept in another pointer, and
 * a thread number also stored. Another schedule changes each row; each of these shows
 * it. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define N 4000
#define B 8

static int v[N];
static int owner[N];

static long sum_rows(long **rows, int nthreads, int b)
{
    long s = 0;
    for (int t = 0; t < nthreads; t++)
        s += rows[t][b];
    return s;
}

static void traps(void)
{
    int nthreads = omp_get_max_threads();
    long **a = malloc(nthreads * sizeof(long *));
    long **c = malloc(nthreads * sizeof(long *));
    long **d = malloc(nthreads * sizeof(long *));
    double **e = malloc(nthreads * sizeof(double *));
    long **f = malloc(nthreads * sizeof(long *));
    long **g = malloc(nthreads * sizeof(long *));
    long **h = malloc(nthreads * sizeof(long *));
    for (int t = 0; t < nthreads; t++) {
        a[t] = calloc(B, sizeof(long));
        c[t] = calloc(B, sizeof(long));
        d[t] = calloc(B, sizeof(long));
        e[t] = calloc(B, sizeof(double));
        f[t] = calloc(B, sizeof(long));
        g[t] = calloc(B, sizeof(long));
        h[t] = calloc(B, sizeof(long));
    }
#pragma omp parallel
    {
        int tid = omp_get_thread_num();
#pragma omp for
        for (int i = 0; i < N; i++)
            a[tid][v[i] % B] += v[i];
    }
    long first = a[0][0];  /* the master's row alone */
    long total = 0;
#pragma omp parallel
    {
        int tid = omp_get_thread_num();
#pragma omp for
        for (int i = 0; i < N; i++)
            c[tid][v[i] % B] += 1;
    }
    for (int t = 0; t < nthreads - 1; t++)  /* the last thread's row left out */
        total += c[t][1];
#pragma omp parallel
    {
        int pair = omp_get_thread_num() / 2;
#pragma omp for
        for (int i = 0; i < N; i++)
            d[pair][v[i] % B] += 1;
    }
    for (int t = 0; t < nthreads; t++)
        total += d[t][2];
#pragma omp parallel
    {
        int tid = omp_get_thread_num();
#pragma omp for
        for (int i = 0; i < N; i++)
            e[tid][v[i] % B] = e[tid][v[i] % B] * 0.5 + v[i];
    }
    double mixed = 0.0;
    for (int t = 0; t < nthreads; t++)
        mixed += e[t][3];
#pragma omp parallel
    {
        int tid = omp_get_thread_num();
#pragma omp for
        for (int i = 0; i < N; i++)
            f[tid][v[i] % B] += v[i];
    }
    long most = 0;
    for (int t = 0; t < nthreads; t++)
        if (f[t][4] > most)
            most = f[t][4];
    long *kept = g[0];
#pragma omp parallel
    {
        int tid = omp_get_thread_num();
#pragma omp for
        for (int i = 0; i < N; i++)
            g[tid][v[i] % B] += v[i];
    }
    for (int t = 0; t < nthreads; t++)
        total += g[t][5];
#pragma omp parallel
    {
        int tid = omp_get_thread_num();
#pragma omp for
        for (int i = 0; i < N; i++) {
            h[tid][v[i] % B] += v[i];
            owner[i] = tid;
        }
    }
    total += sum_rows(h, nthreads, 6);
    long who = 0;
    for (int i = 0; i < N; i++)
        who += owner[i] * (i % 3);
    printf("%ld %ld %ld %.1f %ld %ld\n", first, total, most, mixed, kept[5], who);
}

int main(void)
{
    for (int i = 0; i < N; i++)
        v[i] = (i * 7919) % 1000;
    traps();
    return 0;
}

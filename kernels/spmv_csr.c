/* Sparse matrix-vector product y = A*x in CSR form, repeated REPS times.
 * Row i holds 1 + MAXLEN/(i+1) nonzeros: the first rows are very heavy,
 * the tail is almost empty, so equal blocks of rows are very unequal work.
 * The matrix comes from a fixed linear congruential generator. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#ifndef N
#define N 100000
#endif
#ifndef MAXLEN
#define MAXLEN 50000
#endif
#ifndef REPS
#define REPS 150
#endif

static unsigned int lcg_state = 12345u;

static unsigned int lcg(void)
{
    lcg_state = lcg_state * 1664525u + 1013904223u;
    return lcg_state >> 8;
}

static int *rowptr, *col;
static double *val, *x, *y;

static void build(void)
{
    long nnz = 0;
    int i, k;
    rowptr = malloc((size_t)(N + 1) * sizeof *rowptr);
    x = malloc((size_t)N * sizeof *x);
    y = malloc((size_t)N * sizeof *y);
    if (!rowptr || !x || !y) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    rowptr[0] = 0;
    for (i = 0; i < N; i++) {
        int len = 1 + MAXLEN / (i + 1);
        if (len > N)
            len = N;
        nnz += len;
        rowptr[i + 1] = (int)nnz;
    }
    col = malloc((size_t)nnz * sizeof *col);
    val = malloc((size_t)nnz * sizeof *val);
    if (!col || !val) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    for (i = 0; i < N; i++) {
        for (k = rowptr[i]; k < rowptr[i + 1]; k++) {
            col[k] = (int)(lcg() % (unsigned int)N);
            val[k] = (double)(lcg() % 1000u) / 1000.0 - 0.5;
        }
        x[i] = 1.0 + (double)(i % 10) * 0.1;
        y[i] = 0.0;
    }
}

static void spmv(void)
{
    int r, i, k;
    for (r = 0; r < REPS; r++) {
#pragma omp parallel for private(k)
        for (i = 0; i < N; i++) {
            double s = 0.0;
            for (k = rowptr[i]; k < rowptr[i + 1]; k++)
                s += val[k] * x[col[k]];
            y[i] = s;
        }
    }
}

int main(void)
{
    double sum = 0.0;
    int i;
    build();
    spmv();
    for (i = 0; i < N; i++)
        sum += y[i] * (double)(1 + i % 3);
    printf("checksum: %.12e\n", sum);
    free(rowptr);
    free(col);
    free(val);
    free(x);
    free(y);
    return 0;
}

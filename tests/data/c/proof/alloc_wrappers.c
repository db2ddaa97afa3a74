/* Scratch blocks from the allocation wrappers real codes write: a checked malloc that
   exits on failure, posix_memalign behind a helper, calloc of a counted row. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 1500
#define W 24

static double in[N * W], out[N];

static void *xmalloc(size_t n)
{
    void *p = malloc(n);
    if (p == NULL) {
        fprintf(stderr, "xmalloc: out of memory (%zu bytes)\n", n);
        exit(EXIT_FAILURE);
    }
    return p;
}

static double *aligned_doubles(size_t n)
{
    void *p = NULL;
    if (posix_memalign(&p, 64, n * sizeof(double)) != 0)
        return NULL;
    return p;
}

static double checked_sum(void)
{
    double s = 0.0;
    int i;
#pragma omp parallel for reduction(+ : s)
    for (i = 0; i < N; i++) {
        double *tmp = xmalloc(W * sizeof *tmp);
        double acc = 0.0;
        for (int k = 0; k < W; k++)
            tmp[k] = in[i * W + k] * 2.0;
        for (int k = 0; k < W; k++)
            acc += tmp[W - 1 - k] * (k + 1);
        out[i] = acc;
        s += acc;
        free(tmp);
    }
    return s;
}

static void aligned_rows(void)
{
    int i;
#pragma omp parallel for
    for (i = 0; i < N; i++) {
        double *row = aligned_doubles(W);
        double acc = 0.0;
        if (row == NULL)
            abort();
        memcpy(row, in + (size_t)i * W, W * sizeof *row);
        for (int k = 0; k < W; k++)
            acc += row[k] * row[k];
        out[i] += acc;
        free(row);
    }
}

static void memalign_direct(void)
{
    int i;
#pragma omp parallel for
    for (i = 0; i < N; i++) {
        double *row;
        double acc = 0.0;
        if (posix_memalign((void **)&row, 32, W * sizeof *row) != 0)
            abort();
        for (int k = 0; k < W; k++)
            row[k] = in[i * W + k] + k;
        for (int k = 1; k < W; k++)
            acc += row[k] - row[k - 1];
        out[i] += acc;
        free(row);
    }
}

int main(void)
{
    int i;
    double s, t = 0.0;
    for (i = 0; i < N * W; i++)
        in[i] = (i % 37) * 0.25;
    s = checked_sum();
    aligned_rows();
    memalign_direct();
    for (i = 0; i < N; i++)
        t += out[i] * (i % 3 + 1);
    printf("%.4f %.4f\n", s, t);
    return 0;
}

/* Shapes known only at run time, as solver and image codes write them: two halves of one
 * allocation (a result stored after its input), an input and output of separate mallocs
 * passed to kernels, blocks addressed by / and % of a run-time block size, and tiles of a
 * run-time width whose last one MIN clips. Every loop is independent at every size. */
#include <stdio.h>
#include <stdlib.h>

#define MIN(a, b) ((a) < (b) ? (a) : (b))

static void scale_into(int n, double alpha, const double *restrict_in, double *out)
{
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n; i++)
        out[i] = alpha * restrict_in[i] + 1.0;
}

static void block_update(int n, int bs, double *v)
{
    int nb = n / bs;
#pragma omp parallel for
    for (int b = 0; b < nb * bs; b++) {
        int blk = b / bs;
        int off = b % bs;
        v[blk * bs + off] = v[blk * bs + off] * 0.5 + blk - off;
    }
}

static void tiled_copy(int n, int tile, double *dst, const double *src)
{
#pragma omp parallel for
    for (int ii = 0; ii < n; ii += tile) {
        int hi = MIN(ii + tile, n);
        for (int i = ii; i < hi; i++)
            dst[i] = src[i] * 3.0 - ii;
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    int bs = argc > 2 ? atoi(argv[2]) : 16;
    if (n < 1 || bs < 1) {
        fprintf(stderr, "usage: %s N BLOCK\n", argv[0]);
        return 1;
    }
    double *vector = malloc(2 * (size_t)n * sizeof *vector);
    double *result = vector + n;
    double *x = malloc(n * sizeof *x);
    double *y = malloc(n * sizeof *y);
    double *hist = malloc(2 * (size_t)n * sizeof *hist);
    double *upper = &hist[n];
    for (int i = 0; i < n; i++) {
        vector[i] = (i % 13) * 0.25;
        x[i] = i % 7;
        hist[i] = i % 5;
    }
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        result[i] = vector[i] * 2.0 + vector[n - 1 - i];
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        upper[i] = hist[i] + hist[(i + 1) % n];
    scale_into(n, 1.5, x, y);
    block_update(n, bs, x);
    tiled_copy(n, bs, y, x);
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += result[i] * (i % 3) + upper[i] * (i % 4) + x[i] + y[i] * (i % 5);
    printf("%.6f\n", s);
    free(vector);
    free(x);
    free(y);
    free(hist);
    return 0;
}

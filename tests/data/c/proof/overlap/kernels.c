/* A small vector and grid library, compiled on its own: every kernel takes its arrays
 * as parameters, and callers in other files may hand it any pointers, one array twice
 * or two views of one block included. */
#include <stddef.h>

#define NCOL 64

void axpy(double *y, const double *x, double alpha, int n)
{
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        y[i] = y[i] + alpha * x[i];
}

void smooth3(double *out, const double *in, int n)
{
#pragma omp parallel for schedule(static)
    for (int i = 1; i < n - 1; i++)
        out[i] = 0.25 * in[i - 1] + 0.5 * in[i] + 0.25 * in[i + 1];
}

void scale_rows(double *m, const double *f, int rows, int cols)
{
    int r, k;
#pragma omp parallel for private(k)
    for (r = 0; r < rows; r++)
        for (k = 0; k < cols; k++)
            m[r * cols + k] *= f[r];
}

void add_grids(double (*c)[NCOL], double (*a)[NCOL], double (*b)[NCOL], int rows)
{
#pragma omp parallel for
    for (int r = 0; r < rows; r++)
        for (int k = 0; k < NCOL; k++)
            c[r][k] = a[r][k] + b[r][k];
}

/* traps: rows reached through a table of row pointers, and a cursor moved by the loop */
void copy_rows(double **dst, double **src, int rows, int cols)
{
#pragma omp parallel for
    for (int r = 0; r < rows; r++)
        for (int k = 0; k < cols; k++)
            dst[r][k] = src[r][k + 1];
}

void gather_shift(double *out, const double *in, size_t n)
{
#pragma omp parallel for
    for (size_t i = 0; i < n - 1; i++)
        out[i] = in[i + 1] - in[i];
}

/* counts as ints beside values as doubles: one block may hold both, so the test
   compares bytes */
void weigh(double *out, const int *count, int n)
{
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        out[i] = out[i] / (1 + count[i]);
}

/* weights that may be the output itself, never the input it smooths */
void smooth_weighted(double *out, const double *in, const double *w, int n)
{
#pragma omp parallel for
    for (int i = 1; i < n - 1; i++)
        out[i] = w[i] * (in[i - 1] + in[i + 1]);
}

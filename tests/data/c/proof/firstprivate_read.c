/* Rodinia backprop style: a firstprivate size only read, a private set before use,
 * weights reached through row pointers allocated one row at a time. */
#include <stdio.h>
#include <stdlib.h>

static float *alloc_1d(int n)
{
    float *p = (float *)malloc((size_t)n * sizeof(float));
    if (p == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    return p;
}

static float **alloc_2d(int m, int n)
{
    float **rows = (float **)malloc((size_t)m * sizeof(float *));
    for (int i = 0; i < m; i++)
        rows[i] = alloc_1d(n);
    return rows;
}

static void adjust(float *delta, int ndelta, float *ly, int nly, float **w, float **oldw)
{
    int j, k;
    float new_dw;
#pragma omp parallel for private(j, k, new_dw) firstprivate(ndelta, nly)
    for (j = 1; j <= ndelta; j++) {
        for (k = 0; k <= nly; k++) {
            new_dw = 0.3f * delta[j] * ly[k] + 0.3f * oldw[k][j];
            w[k][j] += new_dw;
            oldw[k][j] = new_dw;
        }
    }
}

int main(void)
{
    int n_in = 64, n_out = 32;
    float *delta = alloc_1d(n_out + 1), *ly = alloc_1d(n_in + 1);
    float **w = alloc_2d(n_in + 1, n_out + 1), **oldw = alloc_2d(n_in + 1, n_out + 1);
    for (int k = 0; k <= n_in; k++) {
        ly[k] = (k % 5) * 0.25f;
        for (int j = 0; j <= n_out; j++) {
            w[k][j] = (float)((k + j) % 7);
            oldw[k][j] = 0.0f;
        }
    }
    for (int j = 0; j <= n_out; j++)
        delta[j] = (j % 3) * 0.5f;
    adjust(delta, n_out, ly, n_in, w, oldw);
    double s = 0.0;
    for (int k = 0; k <= n_in; k++)
        for (int j = 0; j <= n_out; j++)
            s += w[k][j] * (k % 4);
    printf("%.4f\n", s);
    return 0;
}

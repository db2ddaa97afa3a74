/* Tiled loops whose tile ends at the nearer of its own end and the array's, written as
 * two tests joined by && (as blocked BLAS-like and stencil codes write them, in either
 * order, strict or not): each tile's rows are its own. */
#include <stdio.h>

#define N 300
#define BS 32

static double A[N * N], B[N * N], C[N * N], v[N];

static void matmul_tiles(int n, int bs)
{
#pragma omp parallel for schedule(dynamic)
    for (int ii = 0; ii < n; ii += bs)
        for (int kk = 0; kk < n; kk += bs)
            for (int i = ii; i < ii + bs && i < n; i++)
                for (int k = kk; k < kk + bs && k < n; k++) {
                    double a = A[i * n + k];
                    for (int j = 0; j < n; j++)
                        C[i * n + j] += a * B[k * n + j];
                }
}

static void scale_tiles(int n, int bs)
{
#pragma omp parallel for
    for (int t = 0; t < n; t += bs)
        for (int i = t; i < n && i <= t + bs - 1; i++)
            v[i] = 0.5 * v[i] + 1.0;
}

int main(void)
{
    for (int i = 0; i < N * N; i++) {
        A[i] = (i % 7) * 0.25;
        B[i] = (i % 5) - 2.0;
    }
    for (int i = 0; i < N; i++)
        v[i] = i % 11;
    matmul_tiles(N, BS);
    scale_tiles(N, BS);
    double s = 0.0;
    for (int i = 0; i < N * N; i++)
        s += C[i] * (i % 3 + 1);
    for (int i = 0; i < N; i++)
        s += v[i];
    printf("%.6f\n", s);
    return 0;
}

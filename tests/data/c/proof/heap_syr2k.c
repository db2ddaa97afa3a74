/* A PolyBench-style kernel: arrays from an aligned allocator wrapper (posix_memalign
   into a local), handed over as *C; the kernel scales by a by-value beta and bounds by
   by-value sizes. Each iteration i writes its own row of C. */
#include <stdio.h>
#include <stdlib.h>
#define N 48
#define M 40

static void *xmalloc(size_t size)
{
    void *ret = NULL;
    int err = posix_memalign(&ret, 4096, size);
    if (!ret || err) {
        fprintf(stderr, "cannot allocate memory\n");
        exit(1);
    }
    return ret;
}

static void kernel_syr2k(int n, int m, double alpha, double beta, double C[N][N],
                         double A[N][M], double B[N][M])
{
    int i, j, k;
#pragma omp parallel
    {
#pragma omp for private(j, k) schedule(dynamic)
        for (i = 0; i < n; i++) {
            for (j = 0; j <= i; j++)
                C[i][j] *= beta;
            for (k = 0; k < m; k++)
                for (j = 0; j <= i; j++)
                    C[i][j] += A[j][k] * alpha * B[i][k] + B[j][k] * alpha * A[i][k];
        }
    }
}

int main(void)
{
    double (*C)[N][N] = (double (*)[N][N])xmalloc(sizeof(double) * N * N);
    double (*A)[N][M] = (double (*)[N][M])xmalloc(sizeof(double) * N * M);
    double (*B)[N][M] = (double (*)[N][M])xmalloc(sizeof(double) * N * M);
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < M; j++) {
            (*A)[i][j] = (double)((i * j + 1) % N) / N;
            (*B)[i][j] = (double)((i * j + 2) % M) / M;
        }
        for (int j = 0; j < N; j++)
            (*C)[i][j] = (double)((i * j + 3) % N) / M;
    }
    kernel_syr2k(N, M, 1.5, 1.2, *C, *A, *B);
    double s = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            s += (*C)[i][j];
    printf("%.6f\n", s);
    free(C);
    free(A);
    free(B);
    return 0;
}

/* gemm in the style of a polyhedral benchmark suite:
 * C := alpha*A*B + beta*C, written for the autotune front-end tests. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include "polybench_style.h"

/* Problem size: pick a dataset, any size may be overridden with -D. */
#if defined(MINI_DATASET)
#define NI_DEFAULT 16
#define NJ_DEFAULT 18
#define NK_DEFAULT 22
#elif defined(LARGE_DATASET)
#define NI_DEFAULT 1000
#define NJ_DEFAULT 1100
#define NK_DEFAULT 1200
#else /* SMALL_DATASET */
#define NI_DEFAULT 64
#define NJ_DEFAULT 72
#define NK_DEFAULT 88
#endif

#ifndef NI
#define NI NI_DEFAULT
#endif
#ifndef NJ
#define NJ NJ_DEFAULT
#endif
#ifndef NK
#define NK NK_DEFAULT
#endif

#define _PB_NI PB_BOUND(NI, ni)
#define _PB_NJ PB_BOUND(NJ, nj)
#define _PB_NK PB_BOUND(NK, nk)

static void init_array(int ni, int nj, int nk,
                       DATA_TYPE *alpha, DATA_TYPE *beta,
                       DATA_TYPE POLYBENCH_2D(C, NI, NJ, ni, nj),
                       DATA_TYPE POLYBENCH_2D(A, NI, NK, ni, nk),
                       DATA_TYPE POLYBENCH_2D(B, NK, NJ, nk, nj))
{
    int i, j;

    *alpha = SCALAR_VAL(1.25);
    *beta = SCALAR_VAL(0.75);
    for (i = 0; i < ni; i++)
        for (j = 0; j < nj; j++)
            C[i][j] = (DATA_TYPE)((i * j + 1) % ni) / ni;
    for (i = 0; i < ni; i++)
        for (j = 0; j < nk; j++)
            A[i][j] = (DATA_TYPE)(i * (j + 1) % nk) / nk;
    for (i = 0; i < nk; i++)
        for (j = 0; j < nj; j++)
            B[i][j] = (DATA_TYPE)(i * (j + 2) % nj) / nj;
}

static void print_array(int ni, int nj, DATA_TYPE POLYBENCH_2D(C, NI, NJ, ni, nj))
{
    int i, j;

    for (i = 0; i < ni; i++)
        for (j = 0; j < nj; j++)
            fprintf(stderr, DATA_PRINTF_MODIFIER, C[i][j]);
    fprintf(stderr, "\n");
}

/* The timed kernel: the whole nest is one parallel loop over rows of C. */
static void kernel_gemm(int ni, int nj, int nk,
                        DATA_TYPE alpha, DATA_TYPE beta,
                        DATA_TYPE POLYBENCH_2D(C, NI, NJ, ni, nj),
                        DATA_TYPE POLYBENCH_2D(A, NI, NK, ni, nk),
                        DATA_TYPE POLYBENCH_2D(B, NK, NJ, nk, nj))
{
    int i, j, k;

#pragma omp parallel for private(j, k)
    for (i = 0; i < _PB_NI; i++) {
        for (j = 0; j < _PB_NJ; j++)
            C[i][j] *= beta;
        for (k = 0; k < _PB_NK; k++)
            for (j = 0; j < _PB_NJ; j++)
                C[i][j] += alpha * A[i][k] * B[k][j];
    }
}

int main(int argc, char **argv)
{
    int ni = NI;
    int nj = NJ;
    int nk = NK;
    int i, j;
    double sum = 0.0;
    DATA_TYPE alpha;
    DATA_TYPE beta;
    DATA_TYPE(*C)[NI][NJ] = PB_ALLOC_2D(DATA_TYPE, NI, NJ);
    DATA_TYPE(*A)[NI][NK] = PB_ALLOC_2D(DATA_TYPE, NI, NK);
    DATA_TYPE(*B)[NK][NJ] = PB_ALLOC_2D(DATA_TYPE, NK, NJ);

    init_array(ni, nj, nk, &alpha, &beta, PB_ARRAY(C), PB_ARRAY(A), PB_ARRAY(B));
    kernel_gemm(ni, nj, nk, alpha, beta, PB_ARRAY(C), PB_ARRAY(A), PB_ARRAY(B));
    pb_prevent_dce(print_array(ni, nj, PB_ARRAY(C)));

    for (i = 0; i < ni; i++)
        for (j = 0; j < nj; j++)
            sum += PB_ARRAY(C)[i][j];
    printf("checksum: %.12e\n", sum);

    PB_FREE(C);
    PB_FREE(A);
    PB_FREE(B);
    return 0;
}

/* 2mm in the style of a polyhedral benchmark suite:
 * D := alpha*A*B*C + beta*D, two parallel loop nests sharing tmp. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include "polybench_style.h"

#if defined(MINI_DATASET)
#define NI_DEFAULT 12
#define NJ_DEFAULT 14
#define NK_DEFAULT 16
#define NL_DEFAULT 18
#elif defined(LARGE_DATASET)
#define NI_DEFAULT 800
#define NJ_DEFAULT 900
#define NK_DEFAULT 1000
#define NL_DEFAULT 1100
#else /* SMALL_DATASET */
#define NI_DEFAULT 44
#define NJ_DEFAULT 52
#define NK_DEFAULT 60
#define NL_DEFAULT 68
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
#ifndef NL
#define NL NL_DEFAULT
#endif

#define _PB_NI PB_BOUND(NI, ni)
#define _PB_NJ PB_BOUND(NJ, nj)
#define _PB_NK PB_BOUND(NK, nk)
#define _PB_NL PB_BOUND(NL, nl)

static void init_array(int ni, int nj, int nk, int nl,
                       DATA_TYPE *alpha, DATA_TYPE *beta,
                       DATA_TYPE POLYBENCH_2D(A, NI, NK, ni, nk),
                       DATA_TYPE POLYBENCH_2D(B, NK, NJ, nk, nj),
                       DATA_TYPE POLYBENCH_2D(C, NJ, NL, nj, nl),
                       DATA_TYPE POLYBENCH_2D(D, NI, NL, ni, nl))
{
    int i, j;

    *alpha = SCALAR_VAL(1.5);
    *beta = SCALAR_VAL(1.2);
    for (i = 0; i < ni; i++)
        for (j = 0; j < nk; j++)
            A[i][j] = (DATA_TYPE)((i * j + 1) % ni) / ni;
    for (i = 0; i < nk; i++)
        for (j = 0; j < nj; j++)
            B[i][j] = (DATA_TYPE)(i * (j + 1) % nj) / nj;
    for (i = 0; i < nj; i++)
        for (j = 0; j < nl; j++)
            C[i][j] = (DATA_TYPE)((i * (j + 3) + 1) % nl) / nl;
    for (i = 0; i < ni; i++)
        for (j = 0; j < nl; j++)
            D[i][j] = (DATA_TYPE)(i * (j + 2) % nk) / nk;
}

static void print_array(int ni, int nl, DATA_TYPE POLYBENCH_2D(D, NI, NL, ni, nl))
{
    int i, j;

    for (i = 0; i < ni; i++)
        for (j = 0; j < nl; j++)
            fprintf(stderr, DATA_PRINTF_MODIFIER, D[i][j]);
    fprintf(stderr, "\n");
}

static void kernel_2mm(int ni, int nj, int nk, int nl,
                       DATA_TYPE alpha, DATA_TYPE beta,
                       DATA_TYPE POLYBENCH_2D(tmp, NI, NJ, ni, nj),
                       DATA_TYPE POLYBENCH_2D(A, NI, NK, ni, nk),
                       DATA_TYPE POLYBENCH_2D(B, NK, NJ, nk, nj),
                       DATA_TYPE POLYBENCH_2D(C, NJ, NL, nj, nl),
                       DATA_TYPE POLYBENCH_2D(D, NI, NL, ni, nl))
{
    int i, j, k;

    /* tmp := alpha*A*B */
#pragma omp parallel for private(j, k)
    for (i = 0; i < _PB_NI; i++)
        for (j = 0; j < _PB_NJ; j++) {
            tmp[i][j] = SCALAR_VAL(0.0);
            for (k = 0; k < _PB_NK; ++k)
                tmp[i][j] += alpha * A[i][k] * B[k][j];
        }
    /* D := tmp*C + beta*D */
#pragma omp parallel for private(j, k)
    for (i = 0; i < _PB_NI; i++)
        for (j = 0; j < _PB_NL; j++) {
            D[i][j] *= beta;
            for (k = 0; k < _PB_NJ; ++k)
                D[i][j] += tmp[i][k] * C[k][j];
        }
}

int main(int argc, char **argv)
{
    int ni = NI;
    int nj = NJ;
    int nk = NK;
    int nl = NL;
    int i, j;
    double sum = 0.0;
    DATA_TYPE alpha;
    DATA_TYPE beta;
    DATA_TYPE(*tmp)[NI][NJ] = PB_ALLOC_2D(DATA_TYPE, NI, NJ);
    DATA_TYPE(*A)[NI][NK] = PB_ALLOC_2D(DATA_TYPE, NI, NK);
    DATA_TYPE(*B)[NK][NJ] = PB_ALLOC_2D(DATA_TYPE, NK, NJ);
    DATA_TYPE(*C)[NJ][NL] = PB_ALLOC_2D(DATA_TYPE, NJ, NL);
    DATA_TYPE(*D)[NI][NL] = PB_ALLOC_2D(DATA_TYPE, NI, NL);

    init_array(ni, nj, nk, nl, &alpha, &beta,
               PB_ARRAY(A), PB_ARRAY(B), PB_ARRAY(C), PB_ARRAY(D));
    kernel_2mm(ni, nj, nk, nl, alpha, beta, PB_ARRAY(tmp),
               PB_ARRAY(A), PB_ARRAY(B), PB_ARRAY(C), PB_ARRAY(D));
    pb_prevent_dce(print_array(ni, nl, PB_ARRAY(D)));

    for (i = 0; i < ni; i++)
        for (j = 0; j < nl; j++)
            sum += PB_ARRAY(D)[i][j];
    printf("checksum: %.12e\n", sum);

    PB_FREE(tmp);
    PB_FREE(A);
    PB_FREE(B);
    PB_FREE(C);
    PB_FREE(D);
    return 0;
}

/* Dense matrix multiply C = A*B, three nested loops (i, j, k), static arrays.
 * The k loop walks B by column: cache behaviour depends on the sizes. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#ifndef NI
#define NI 600
#endif
#ifndef NJ
#define NJ 640
#endif
#ifndef NK
#define NK 560
#endif

static double A[NI][NK], B[NK][NJ], C[NI][NJ];

static void init(void)
{
    int i, j, k;
    for (i = 0; i < NI; i++)
        for (k = 0; k < NK; k++)
            A[i][k] = (double)((i * 7 + k * 3) % 17) / 17.0;
    for (k = 0; k < NK; k++)
        for (j = 0; j < NJ; j++)
            B[k][j] = (double)((k * 5 + j * 11) % 13) / 13.0 - 0.5;
    for (i = 0; i < NI; i++)
        for (j = 0; j < NJ; j++)
            C[i][j] = 0.0;
}

static void matmul(void)
{
    int i, j, k;
#pragma omp parallel for private(j, k)
    for (i = 0; i < NI; i++)
        for (j = 0; j < NJ; j++)
            for (k = 0; k < NK; k++)
                C[i][j] += A[i][k] * B[k][j];
}

int main(void)
{
    double sum = 0.0;
    int i, j;
    init();
    matmul();
    for (i = 0; i < NI; i++)
        for (j = 0; j < NJ; j++)
            sum += C[i][j] * (double)(1 + (i + j) % 5);
    printf("checksum: %.12e\n", sum);
    return 0;
}

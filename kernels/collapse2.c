/* A short outer loop (NI rows) over a long inner one (NJ): only collapse(2)
 * gives the threads enough iterations to share. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <omp.h>

#ifndef NI
#define NI 6
#endif
#ifndef NJ
#define NJ 500000
#endif

static double field[NI][NJ];

static void fill(void)
{
    int i, j;
#pragma omp parallel for collapse(2)
    for (i = 0; i < NI; i++)
        for (j = 0; j < NJ; j++)
            field[i][j] = sqrt(1.0 + (double)j) * exp(-1.0e-5 * (double)j)
                          + log(1.0 + (double)(i + j)) * cos(1.0e-3 * (double)(i * j));
}

int main(void)
{
    double sum = 0.0;
    int i, j;
    fill();
    for (i = 0; i < NI; i++)
        for (j = 0; j < NJ; j++)
            sum += field[i][j] * (double)(1 + i);
    printf("checksum: %.12e\n", sum);
    return 0;
}

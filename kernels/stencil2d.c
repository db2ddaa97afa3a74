/* 2-D 5-point Jacobi stencil: TSTEPS sequential time steps around a
 * parallel sweep over the interior; the two grids are swapped each step. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#ifndef N
#define N 1000
#endif
#ifndef TSTEPS
#define TSTEPS 100
#endif

static double g0[N][N], g1[N][N];

static void init(void)
{
    int i, j;
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++) {
            g0[i][j] = (i == 0 || j == 0) ? 1.0 : (double)((i * j) % 10) * 0.1;
            g1[i][j] = g0[i][j];
        }
}

static double (*result)[N]; /* grid holding the last time step */

static void jacobi(void)
{
    double (*cur)[N] = g0;
    double (*nxt)[N] = g1;
    double (*tmp)[N];
    int t, i, j;
    for (t = 0; t < TSTEPS; t++) {
#pragma omp parallel for private(j)
        for (i = 1; i < N - 1; i++)
            for (j = 1; j < N - 1; j++)
                nxt[i][j] = 0.2 * (cur[i][j] + cur[i - 1][j] + cur[i + 1][j]
                                   + cur[i][j - 1] + cur[i][j + 1]);
        tmp = cur;
        cur = nxt;
        nxt = tmp;
    }
    result = cur;
}

int main(void)
{
    double sum = 0.0;
    int i, j;
    init();
    jacobi();
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            sum += result[i][j] * (double)(1 + (i + 2 * j) % 3);
    printf("checksum: %.12e\n", sum);
    return 0;
}

/* Rows that are new allocations, then copied by the C library into another row's slot:
 * two levels of a hierarchy sharing planes after memcpy, and a grid whose row pointer
 * memmove shifts onto its neighbour's. No assignment shows these stores. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LT 3
#define N 10

static void smooth(double ***z, double ***u)
{
#pragma omp parallel for
    for (int i3 = 1; i3 < N - 1; i3++)
        for (int i2 = 1; i2 < N - 1; i2++)
            for (int i1 = 1; i1 < N - 1; i1++)
                u[i3][i2][i1] = 0.5 * (z[i3 - 1][i2][i1] + z[i3 + 1][i2][i1]) + 1.0;
}

int main(void)
{
    double ****g = (double ****)malloc((LT + 1) * sizeof(double ***));
    for (int l = LT; l >= 1; l--) {
        g[l] = (double ***)malloc(N * sizeof(double **));
        for (int k = 0; k < N; k++) {
            g[l][k] = (double **)malloc(N * sizeof(double *));
            for (int j = 0; j < N; j++)
                g[l][k][j] = (double *)calloc(N, sizeof(double));
        }
    }
    memcpy(g[1], g[2], N * sizeof(double **));  /* level 1's planes are level 2's */
    int j, k = 2;
    j = k - 1;
    smooth(g[j], g[k]);
    double **a = (double **)malloc(N * sizeof(double *));
    for (int i = 0; i < N; i++)
        a[i] = (double *)calloc(N, sizeof(double));
    memmove(a + 1, a, sizeof(double *));  /* row 1 is row 0 */
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        for (int c = 0; c < N; c++)
            a[i][c] = a[i][c] * 0.5 + i;
    double s = 0;
    for (int i = 0; i < N; i++)
        s += g[2][i][i][i] * (i + 1) + a[i][i] * (i + 2);
    printf("%.6f\n", s);
    return 0;
}

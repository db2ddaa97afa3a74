/* The levels of a multigrid solver as NPB MG's C version keeps them: one double ***
   grid per level, every plane and row its own allocation, a level passed to a kernel as
   u[k]. At the coarse levels the residual is computed in place, resid(u[k], r[k], r[k]):
   the right-hand side and the residual are one grid, read and written at the same
   point. A second set of levels saves memory by letting level 2 share level 1's grid
   (s[2] = s[1]); restricting level 2 onto level 1 then writes the grid it reads, from
   other iterations: a race, run only when asked (an argument). */
#include <stdio.h>
#include <stdlib.h>
#define LT 3

static int m[LT + 1];

static void fill(double ***z, int n, int seed)
{
    int i3, i2, i1;
    for (i3 = 0; i3 < n; i3++)
        for (i2 = 0; i2 < n; i2++)
            for (i1 = 0; i1 < n; i1++)
                z[i3][i2][i1] = (i3 * 5 + i2 * 3 + i1 + seed) % 7;
}

static void resid(double ***u, double ***v, double ***r, int n)
{
    int i3, i2, i1;
#pragma omp parallel for private(i2, i1)
    for (i3 = 1; i3 < n - 1; i3++)
        for (i2 = 1; i2 < n - 1; i2++)
            for (i1 = 1; i1 < n - 1; i1++)
                r[i3][i2][i1] = v[i3][i2][i1] - 2.0 * u[i3][i2][i1]
                    + 0.25 * (u[i3 - 1][i2][i1] + u[i3 + 1][i2][i1]);
}

static void rprj(double ***fine, double ***coarse, int nc)
{
    int j3, j2, j1;
#pragma omp parallel for private(j2, j1)
    for (j3 = 1; j3 < nc - 1; j3++)
        for (j2 = 1; j2 < nc - 1; j2++)
            for (j1 = 1; j1 < nc - 1; j1++)
                coarse[j3][j2][j1] = 0.5 * fine[2 * j3 - 1][2 * j2 - 1][2 * j1 - 1];
}

static double ****levels(void)
{
    int l, k, j;
    double ****g = malloc((LT + 1) * sizeof(double ***));
    for (l = LT; l >= 1; l--) {
        g[l] = malloc(m[l] * sizeof(double **));
        for (k = 0; k < m[l]; k++) {
            g[l][k] = malloc(m[l] * sizeof(double *));
            for (j = 0; j < m[l]; j++)
                g[l][k][j] = malloc(m[l] * sizeof(double));
        }
    }
    return g;
}

int main(int argc, char **argv)
{
    double ****u, ****r, ****s;
    int k;
    double sum = 0.0;
    for (k = 0; k <= LT; k++)
        m[k] = 4 + 8 * k;
    u = levels();
    r = levels();
    s = levels();
    s[2] = s[1];
    for (k = 1; k <= LT; k++) {
        fill(u[k], m[k], 1);
        fill(r[k], m[k], 2);
    }
    fill(s[1], m[1], 3);
    for (k = 1; k <= LT; k++)
        resid(u[k], r[k], r[k], m[k]);
    if (argc > 1)
        rprj(s[2], s[1], m[1] / 2);
    for (k = 1; k <= LT; k++)
        sum += r[k][2][2][2] * k + s[1][2][k][2];
    printf("%.6f\n", sum);
    return 0;
}

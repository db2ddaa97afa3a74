/* NPB BT style: the grid size comes from a header the build generates (BT's
 * npbparams.h), the plane extent is fixed. The dissipation loops write the planes
 * i = 1, i = 2 and i = NX - 3 through a chain of 'omp for nowait' over triangular
 * rows: distinct planes at NX = 12, the same plane twice at NX = 4, where the loops
 * rely on the static mapping. */
#include <stdio.h>
#include "gridparams.h"

#define NY 160

static double rhs[NX][NY][NY], u[NX][NY][NY];

static void add_dissipation(void)
{
    int i, j, k;
    i = 1;
#pragma omp for nowait
    for (j = 1; j < NY - 1; j++)
        for (k = 1; k < j; k++)
            rhs[i][j][k] = rhs[i][j][k] - 0.25 * (5.0 * u[i][j][k] - 4.0 * u[i + 1][j][k]);
    i = 2;
#pragma omp for nowait
    for (j = 1; j < NY - 1; j++)
        for (k = 1; k < j; k++)
            rhs[i][j][k] = rhs[i][j][k] - 0.25 * (6.0 * u[i][j][k] - 4.0 * u[i + 1][j][k]);
    i = NX - 3;
#pragma omp for nowait
    for (j = 1; j < NY - 1; j++)
        for (k = 1; k < j; k++)
            rhs[i][j][k] = 0.5 * rhs[i][j][k] - 0.25 * (u[i - 1][j][k] - 4.0 * u[i][j][k]);
#pragma omp barrier
}

int main(void)
{
    for (int i = 0; i < NX; i++)
        for (int j = 0; j < NY; j++)
            for (int k = 0; k < NY; k++) {
                u[i][j][k] = ((i * 7 + j * 3 + k) % 10) * 0.1;
                rhs[i][j][k] = (i + j + k) % 4;
            }
#pragma omp parallel
    {
        add_dissipation();
    }
    double s = 0.0;
    for (int i = 0; i < NX; i++)
        for (int j = 0; j < NY; j++)
            for (int k = 0; k < NY; k++)
                s += rhs[i][j][k] * (1 + (i + j) % 3);
    printf("%.10e\n", s);
    return 0;
}

/* bt_runtime_grid.c with the plane's extent fixed when compiled (NY x NZ) and only the
 * plane count read at run time: the loops' trip counts are known, the planes i = 1,
 * i = 2 and i = nx - 3 are distinct for nx >= 6 only, so variants run behind a test. */
#include <stdio.h>
#include <stdlib.h>
#define MAXG 32
#define NY 24
#define NZ 24
int grid_points[3];
static double rhs[MAXG][MAXG][MAXG], u[MAXG][MAXG][MAXG];

static void add_dissipation(void)
{
    int i, j, k;
    i = 1;
#pragma omp for nowait
    for (j = 1; j < NY - 1; j++)
        for (k = 1; k < NZ - 1; k++)
            rhs[i][j][k] = rhs[i][j][k] - 0.25 * (5.0 * u[i][j][k] - 4.0 * u[i + 1][j][k]);
    i = 2;
#pragma omp for nowait
    for (j = 1; j < NY - 1; j++)
        for (k = 1; k < NZ - 1; k++)
            rhs[i][j][k] = rhs[i][j][k] - 0.25 * (6.0 * u[i][j][k] - 4.0 * u[i + 1][j][k]);
    i = grid_points[0] - 3;
#pragma omp for nowait
    for (j = 1; j < NY - 1; j++)
        for (k = 1; k < NZ - 1; k++)
            rhs[i][j][k] = 0.5 * rhs[i][j][k] - 0.25 * (u[i - 1][j][k] - 4.0 * u[i][j][k]);
#pragma omp barrier
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 12;
    if (n < 3 || n > MAXG) {
        printf("grid size %d out of range\n", n);
        return 1;
    }
    grid_points[0] = grid_points[1] = grid_points[2] = n;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < NY; j++)
            for (int k = 0; k < NZ; k++) {
                u[i][j][k] = ((i * 7 + j * 3 + k) % 10) * 0.1;
                rhs[i][j][k] = (i + j + k) % 4;
            }
#pragma omp parallel
    {
        add_dissipation();
    }
    double s = 0.0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < NY; j++)
            for (int k = 0; k < NZ; k++)
                s += rhs[i][j][k] * (1 + (i + j) % 3);
    printf("%.10e\n", s);
    return 0;
}

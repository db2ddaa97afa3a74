/* As bt_runtime_grid.c, but the size reaches the dissipation loops as a parameter of
 * the function: each thread has its own copy, so no run-time test placed at the loop
 * can stand for it, and the chain (planes 1, 2, nx - 3) is kept as written. */
#include <stdio.h>
#include <stdlib.h>
#define MAXG 32
int grid_points[3];  /* the size reaches the loops as a parameter below */
static double rhs[MAXG][MAXG][MAXG], u[MAXG][MAXG][MAXG];

static void add_dissipation(int nx)
{
    int i, j, k;
    i = 1;
#pragma omp for nowait
    for (j = 1; j < grid_points[1] - 1; j++)
        for (k = 1; k < grid_points[2] - 1; k++)
            rhs[i][j][k] = rhs[i][j][k] - 0.25 * (5.0 * u[i][j][k] - 4.0 * u[i + 1][j][k]);
    i = 2;
#pragma omp for nowait
    for (j = 1; j < grid_points[1] - 1; j++)
        for (k = 1; k < grid_points[2] - 1; k++)
            rhs[i][j][k] = rhs[i][j][k] - 0.25 * (6.0 * u[i][j][k] - 4.0 * u[i + 1][j][k]);
    i = nx - 3;
#pragma omp for nowait
    for (j = 1; j < grid_points[1] - 1; j++)
        for (k = 1; k < grid_points[2] - 1; k++)
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
        for (int j = 0; j < n; j++)
            for (int k = 0; k < n; k++) {
                u[i][j][k] = ((i * 7 + j * 3 + k) % 10) * 0.1;
                rhs[i][j][k] = (i + j + k) % 4;
            }
#pragma omp parallel
    {
        add_dissipation(grid_points[0]);
    }
    double s = 0.0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            for (int k = 0; k < n; k++)
                s += rhs[i][j][k] * (1 + (i + j) % 3);
    printf("%.10e\n", s);
    return 0;
}

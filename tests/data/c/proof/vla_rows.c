/* Grids as C99 variable-length arrays, sized at run time: a Jacobi sweep whose
   neighbours stay in their rows, and a smoothing pass that reads one past the end of
   each row (a[i][n] is a[i + 1][0], which the next iteration writes: a race, so the
   pass runs only when asked, with a second argument); the same in a 3-D grid whose row
   length every call passes as the same constant (u[i][m - 1][m] is u[i + 1][0][0]). */
#include <stdio.h>
#include <stdlib.h>

static void smooth(int n, double a[n][n], double b[n][n])
{
    int i, j;
#pragma omp parallel for private(j)
    for (i = 1; i < n - 1; i++)
        for (j = 1; j < n - 1; j++)
            b[i][j] = 0.25 * (a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1]);
}

static void spill(int n, double a[n][n])
{
    int i, j;
#pragma omp parallel for private(j)
    for (i = 0; i < n - 1; i++)
        for (j = 0; j < n; j++)
            a[i][j] = 0.5 * (a[i][j] + a[i][j + 1]);
}

static void relax3(int n, int m, double u[n][m][m])
{
    int i, j, k;
#pragma omp parallel for private(j, k)
    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++)
            for (k = 0; k < m; k++)
                u[i][j][k] += 0.25 * u[i][j][k + 1];
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 300;
    double(*a)[n] = malloc(sizeof(double[n][n]));
    double(*b)[n] = malloc(sizeof(double[n][n]));
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            a[i][j] = (i * 3 + j) % 7;
            b[i][j] = 0;
        }
    smooth(n, a, b);
    if (argc > 2) {
        spill(n, a);
        relax3(n / 10, 10, (double(*)[10][10])b);
    }
    double s = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            s += (a[i][j] + b[i][j]) * (i % 5 + 1);
    printf("%.6f\n", s);
    free(a);
    free(b);
    return 0;
}

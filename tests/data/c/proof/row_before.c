/* Running sums along the rows of fixed-size tables, swept to sizes the caller passes
   (as DataRaceBench's DRB014 and codes ported from Fortran write it). The first sweep
   starts each row at j = 1 and stays in its row; the second starts at j = 0, so
   b[i][j - 1] is b[i - 1][m - 1], the last element the previous iteration writes (C
   calls it undefined; the memory is the row before, whatever m is): a race, so it runs
   only when asked, with an argument. */
#include <stdio.h>
#define ROWS 400
#define COLS 256

static double a[ROWS][COLS], b[ROWS][COLS];

static void sums(int n, int m)
{
    int i, j;
#pragma omp parallel for private(j)
    for (i = 0; i < n; i++)
        for (j = 1; j < m; j++)
            a[i][j] += a[i][j - 1];
}

static void damped_sums(int n, int m)
{
    int i, j;
#pragma omp parallel for private(j)
    for (i = 1; i < n; i++)
        for (j = 0; j < m; j++)
            b[i][j] += 0.5 * b[i][j - 1];
}

int main(int argc, char **argv)
{
    int i, j;
    for (i = 0; i < ROWS; i++)
        for (j = 0; j < COLS; j++)
            a[i][j] = b[i][j] = (i * 7 + j * 3) % 11 - 5;
    sums(ROWS, COLS);
    if (argc > 1 && argv[1][0] == 'r')
        damped_sums(ROWS, COLS);
    double s = 0;
    for (i = 0; i < ROWS; i++)
        for (j = 0; j < COLS; j++)
            s += (a[i][j] + b[i][j]) * (j % 3 + 1);
    printf("%.6f\n", s);
    return 0;
}

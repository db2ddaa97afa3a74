/* One row writer called twice per iteration, through two pointers into one grid whose
 * offsets come from the command line (0 and one row by default): iteration i's second
 * row is iteration i + 1's first. Each call site binds the helper's pointer on its own,
 * so the two offsets are two unknowns and nothing cancels between the two stores. */
#include <stdio.h>
#include <stdlib.h>

static double *grid(int m, int n)
{
    return calloc((size_t)(m + 2) * n, sizeof(double));
}

static void put_row(double *row, int i, int n, double v)
{
    for (int j = 0; j < n; j++)
        row[i * n + j] = v + j;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 64;
    int m = 500;
    double *g = grid(m, n);
    double *p = g + (argc > 2 ? atoi(argv[2]) : 0);
    double *q = g + (argc > 3 ? atoi(argv[3]) : n);
#pragma omp parallel for
    for (int i = 0; i < m; i++) {
        put_row(p, i, n, 1.0 * i);
        put_row(q, i, n, 2.0 * i);
    }
    double s = 0;
    for (int k = 0; k < (m + 2) * n; k++)
        s += g[k] * (k % 7);
    printf("%.1f\n", s);
    free(g);
    return 0;
}

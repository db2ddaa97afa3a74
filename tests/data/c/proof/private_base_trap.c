/* Each iteration computes its own base offset through a helper: odd iterations write one
 * row further on, onto the next iteration's row. */
#include <stdio.h>
#include <stdlib.h>

static int pick(int i, int n)
{
    return (i % 2) * n;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 64;
    int m = 400;
    double *a = calloc((size_t)(m + 2) * n, sizeof(double));
#pragma omp parallel for
    for (int i = 0; i < m; i++) {
        int base = pick(i, n);
        for (int j = 0; j < n; j++)
            a[base + i * n + j] = i + 0.5 * j;
    }
    double s = 0;
    for (int k = 0; k < (m + 2) * n; k++)
        s += a[k] * (k % 7);
    printf("%.1f\n", s);
    free(a);
    return 0;
}

/* Triangular nest: row i does i units of work (j < i), so a static
 * schedule with large blocks leaves the first thread idle at the end. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#ifndef N
#define N 15000
#endif

static double x[N], w[N], y[N];

static void lower_solve_like(void)
{
    int i, j;
#pragma omp parallel for private(j)
    for (i = 0; i < N; i++) {
        double s = 0.0;
        for (j = 0; j < i; j++)
            s += x[j] * w[i - j];
        y[i] = s;
    }
}

int main(void)
{
    double sum = 0.0;
    int i;
    for (i = 0; i < N; i++) {
        x[i] = 1.0 + (double)(i % 13) * 0.1;
        w[i] = 1.0 / (1.0 + (double)i);
    }
    lower_solve_like();
    for (i = 0; i < N; i++)
        sum += y[i];
    printf("checksum: %.12e\n", sum);
    return 0;
}

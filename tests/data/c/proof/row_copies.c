/* Rows copied and cleared with the C library, as codes stage halo rows and reset
   accumulators: memcpy of a declared array's rows, memset and memcpy of a flat heap
   array at i * m. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 300
#define M 200

static double a[N][M], b[N][M];

int main(void)
{
    int n = 1000, m = 64;
    double *c = malloc(sizeof(double) * n * m), *d = malloc(sizeof(double) * n * m);
    if (!c || !d)
        return 1;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            b[i][j] = i * 0.5 + j;
    for (int i = 0; i < n * m; i++)
        d[i] = i % 13;

#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        memcpy(a[i], b[N - 1 - i], sizeof a[i]);
        a[i][0] += 1.0;
    }

#pragma omp parallel for
    for (int i = 0; i < n; i++) {
        memset(&c[i * m], 0, m * sizeof(double));
        memcpy(c + (size_t)i * m + 1, d + (size_t)i * m, (m - 1) * sizeof *d);
    }

    double s = 0.0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            s += a[i][j] * (j % 3);
    for (int i = 0; i < n * m; i++)
        s += c[i] * (i % 5);
    printf("%.3f\n", s);
    free(c);
    free(d);
    return 0;
}

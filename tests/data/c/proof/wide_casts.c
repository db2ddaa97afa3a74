/* Subscripts through conversions that cannot wrap at these sizes: a size_t row offset
   (the usual way to index a flattened 2-D array past 2^31 elements) and a long loop
   variable narrowed to int. Each iteration writes its own row: independent. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#define N 300
#define M 200
int main(void)
{
    double *a = malloc(sizeof(double) * N * M);
    static double b[N];
#pragma omp parallel for
    for (long i = 0; i < N; i++) {
        int k = (int)i;
        for (int j = 0; j < M; j++)
            a[(size_t)i * M + j] = (double)(k + j);
        b[k] = a[(size_t)i * M];
    }
    double s = 0.0;
    for (size_t e = 0; e < (size_t)N * M; e++) s += a[e];
    for (int i = 0; i < N; i++) s += b[i];
    printf("%.17g\n", s);
    free(a);
    return 0;
}

/* A BLAS-style kernel on a column block of a matrix stored with a leading dimension:
 * rows of ld doubles, of which the first m are updated. The rows stay apart exactly
 * when m <= ld, which only the caller knows: ./a.out N M LD */
#include <stdio.h>
#include <stdlib.h>

static void scale_block(int n, int m, int ld, double alpha, double *a, const double *b)
{
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            a[i * ld + j] = alpha * b[i * ld + j] + a[i * ld + j] * 0.5;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 200;
    int m = argc > 2 ? atoi(argv[2]) : 150;
    int ld = argc > 3 ? atoi(argv[3]) : 160;
    if (n < 1 || m < 1 || ld < m) {
        fprintf(stderr, "usage: %s N M LD (M <= LD)\n", argv[0]);
        return 1;
    }
    double *a = malloc((size_t)n * ld * sizeof *a), *b = malloc((size_t)n * ld * sizeof *b);
    for (long k = 0; k < (long)n * ld; k++) {
        a[k] = k % 13;
        b[k] = (k % 7) * 0.5;
    }
    scale_block(n, m, ld, 1.5, a, b);
    double s = 0.0;
    for (long k = 0; k < (long)n * ld; k++)
        s += a[k] * (k % 5);
    printf("%.3f\n", s);
    free(a);
    free(b);
    return 0;
}

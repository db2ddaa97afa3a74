/* The same shapes where iterations do meet: a result one element into its input, an
 * offset that changes after the pointer was set, pointers moved by += and ++ before the
 * loop, tiles one element wider than their step, a block's own slot written by each of
 * its elements, and the offset within a block alone. Each may print another result
 * under another schedule or team. */
#include <stdio.h>
#include <stdlib.h>

#define MIN(a, b) ((a) < (b) ? (a) : (b))

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    int bs = argc > 2 ? atoi(argv[2]) : 16;
    if (n < 2 || bs < 1) {
        fprintf(stderr, "usage: %s N BLOCK\n", argv[0]);
        return 1;
    }
    double *v = malloc(3 * (size_t)n * sizeof *v);
    for (int i = 0; i < 3 * n; i++)
        v[i] = (i % 11) * 0.5;
    double *overlap = v + n - 1;
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        overlap[i] = v[i] * 0.5 + 1.0;
    int m = n;
    double *later = v + m;
    m = 1;
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        later[i] = v[i + m] * 0.5;
    double *p = v;
    p += 1;
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        p[i] = v[i] * 0.25 + 2.0;
    double *q = v;
    q++;
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        q[i] = v[i] * 0.75;
#pragma omp parallel for
    for (int ii = 0; ii < n; ii += bs) {
        int hi = MIN(ii + bs + 1, n);
        for (int i = ii; i < hi; i++)
            v[i] = v[i] * 0.5 + ii;
    }
    int nb = n / bs;
#pragma omp parallel for
    for (int b = 0; b < nb * bs; b++) {
        int blk = b / bs;
        v[blk] = v[blk] * 0.5 + b;
    }
#pragma omp parallel for
    for (int b = 0; b < nb * bs; b++) {
        int off = b % bs;
        v[off] = v[off] + b * 0.25;
    }
    double s = 0.0;
    for (int i = 0; i < 3 * n; i++)
        s += v[i] * (i % 7);
    printf("%.6f\n", s);
    free(v);
    return 0;
}

/* A flexible array member whose elements meet between iterations: each element from its
 * neighbour, and a header count the loop also stores to. Each loop is kept as written. */
#include <stdio.h>
#include <stdlib.h>

#define N 2000

typedef struct {
    int n;
    double v[];
} vec_t;

int main(void)
{
    vec_t *f = malloc(sizeof(vec_t) + (N + 1) * sizeof(double));
    f->n = N;
    for (int i = 0; i <= N; i++)
        f->v[i] = i % 7;
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        f->v[i] = 0.5 * f->v[i + 1];
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        f->v[i] += 1.0;
        f->n = i;
    }
    double s = 0.0;
    for (int i = 0; i <= N; i++)
        s += f->v[i];
    printf("%.3f %d\n", s, f->n);
    free(f);
    return 0;
}

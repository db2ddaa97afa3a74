/* Members swapped like grids that do not stay apart: a member also set to the other
 * member's grid, two members started in one block one element apart. Neither is a pair
 * of distinct grids: each loop varies only behind a test of the address ranges, which
 * the program fails. */
#include <stdio.h>
#include <stdlib.h>

#define N 4000

typedef struct {
    double *src;
    double *dst;
} copy_t;

typedef struct {
    double *lo;
    double *hi;
} halves_t;

static void aliased(copy_t *c)
{
#pragma omp parallel for
    for (int i = 1; i < N; i++)
        c->dst[i] = c->src[i - 1] + 1.0;
}

static void split(halves_t *h)
{
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        h->hi[i] = h->lo[i + 1] * 2.0;
}

int main(void)
{
    copy_t c = {malloc(N * sizeof(double)), NULL};
    for (int i = 0; i < N; i++)
        c.src[i] = i % 5;
    c.dst = malloc(N * sizeof(double));
    double *t = c.src;
    c.src = c.dst;
    c.dst = t;
    c.src = c.dst;  /* one grid for both */
    aliased(&c);
    halves_t h;
    double *block = calloc(2 * N + 1, sizeof(double));
    h.lo = block;
    h.hi = block + 1;
    for (int i = 0; i <= 2 * N; i++)
        block[i] = i % 3;
    split(&h);
    double *u = h.lo;
    h.lo = h.hi;
    h.hi = u;
    split(&h);
    double s = 0.0;
    for (int i = 0; i < N; i++)
        s += c.src[i] + block[i];
    printf("%.3f\n", s);
    return 0;
}

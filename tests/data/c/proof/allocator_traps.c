/* Helpers that look like allocators and are not: a workspace kept in a static pointer
 * and handed to every caller, the same through a file-scope cache, and realloc, which may
 * return the block it was given. Two names then reach one block, and each loop reads
 * an element the next iteration writes. */
#include <stdio.h>
#include <stdlib.h>

static double *workspace(size_t n)
{
    static double *buf = NULL;
    static size_t cap = 0;
    if (n > cap) {
        free(buf);
        buf = malloc(n * sizeof *buf);
        cap = n;
    }
    return buf;
}

static double *cache;

static double *cached(size_t n)
{
    if (cache == NULL)
        cache = malloc(n * sizeof *cache);
    return cache;
}

static double *grow(double *w, size_t n)
{
    double *p = realloc(w, n * sizeof *w);
    if (p == NULL)
        exit(1);
    return p;
}

int main(void)
{
    int n = 4000;
    double *a = workspace(n + 1);
    double *b = workspace(n + 1);
    for (int i = 0; i <= n; i++)
        a[i] = i * 0.5;
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        b[i] = a[i + 1] * 2.0 + 1.0;
    double *c = cached(n + 1);
    double *d = cached(n + 1);
    for (int i = 0; i <= n; i++)
        c[i] = i % 9;
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        d[i] = c[i + 1] * 0.5 + 1.0;
    double *e = malloc((n + 1) * sizeof *e);
    for (int i = 0; i <= n; i++)
        e[i] = i % 5;
    double *f = grow(e, n + 1);
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        f[i] = e[i + 1] * 0.5 + 1.0;
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += b[i] * (i % 3) + d[i] * (i % 5) + f[i] * (i % 7);
    printf("%.6f\n", s);
    return 0;
}

/* Traps: a pointer set through its address to a place inside another array, or
 * through an address the program keeps. */
#include <stdio.h>
#include <stdlib.h>

static double *keep_slot;
static double **kept;

static void view_past(double **out, double *base, int k)
{
    *out = base + k; /* a view one element further into the same block */
}

static void remember(double **where)
{
    kept = where; /* the address outlives the call */
}

static void retarget(double *to)
{
    *kept = to;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 4000;
    double *a = malloc((size_t)(n + 1) * sizeof(double));
    double *b = malloc((size_t)(n + 1) * sizeof(double));
    double *next, *dst;
    for (int i = 0; i <= n; i++) {
        a[i] = (i % 11) * 0.25;
        b[i] = (i % 5) * 0.5;
    }
    view_past(&next, a, 1);
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        next[i] = a[i] + 1.0; /* next[i] is a[i + 1]: read by the next iteration */
    dst = b;
    remember(&dst);
    retarget(a + 1);
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        dst[i] = 0.5 * a[i]; /* dst is a + 1 by now */
    keep_slot = a;
    double s = 0.0;
    for (int i = 0; i <= n; i++)
        s += a[i] * (i % 13) + b[i];
    printf("%.10f %p\n", s, (void *)(keep_slot == a ? 0 : keep_slot));
    return 0;
}

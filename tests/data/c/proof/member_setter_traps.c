/* Views set by a setter function, as codes that hide their structs behind an init
   routine write them. Each view starts one element into the array its kernel writes
   (an in-place relaxation reading its right neighbour): iteration i reads what
   iteration i + 1 overwrites. The names the setters store are not the kernels' names:
   a parameter bound by the caller to g + 1, a local pointer one element in, the address
   of such a pointer's element 0. */
#include <stdio.h>
#include <stdlib.h>

#define N 100000

struct view {
    double *data;
    int n;
};

struct band {
    double *cells;
    int n;
};

double a[N + 1];

static void view_init(struct view *v, double *a, int n)
{
    v->data = a;
    v->n = n;
}

static void band_init(struct band *b, double *g, int n)
{
    double *a = g + 1;
    b->cells = &a[0];
    b->n = n;
}

static void relax(double *a, const struct view *v, int n)
{
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        a[i] = 0.5 * (a[i] + v->data[i]);
}

static void relax_band(const struct band *b, int n)
{
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        a[i] = 0.25 * a[i] + b->cells[i];
}

int main(void)
{
    double *g = malloc((N + 1) * sizeof *g);
    if (!g)
        return 1;
    for (int i = 0; i <= N; i++) {
        g[i] = (double)(i % 17);
        a[i] = (double)(i % 23);
    }
    struct view v;
    struct band b;
    view_init(&v, g + 1, N);
    band_init(&b, a, N);
    relax(g, &v, N);
    relax_band(&b, N);
    double s = 0.0;
    for (int i = 0; i < N; i++)
        s += (g[i] + a[i]) * (i % 5 + 1);
    printf("%.6f\n", s);
    free(g);
    return 0;
}

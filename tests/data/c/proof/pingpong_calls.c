/* Two grids swapped every step by the caller, the sweep in a function of its own (as
   Rodinia's hotspot and many Jacobi codes write it); the sweep also reads a boundary
   value of its input. */
#include <stdio.h>
#include <stdlib.h>

static void sweep(double *out, const double *in, int n)
{
#pragma omp parallel for
    for (int i = 1; i < n - 1; i++) {
        double edge = in[0];
        out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3.0 + 1e-3 * edge;
    }
}

static void relax(double *result, double *temp, int n, int steps)
{
    double *r = result, *t = temp;
    for (int s = 0; s < steps; s++) {
        sweep(r, t, n);
        double *tmp = t;
        t = r;
        r = tmp;
    }
}

int main(void)
{
    int n = 5000;
    double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    if (!a || !b)
        return 1;
    for (int i = 0; i < n; i++)
        a[i] = b[i] = (i * 37 % 101) * 0.01;
    relax(b, a, n, 40);
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += a[i] * (i % 3 + 1);
    printf("%.9f\n", s);
    free(a);
    free(b);
    return 0;
}

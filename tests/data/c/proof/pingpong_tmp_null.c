/* The double buffer with its temporary declared before the loop, as NULL: each swap
   still sets it right before the second pointer takes it. */
#include <stdio.h>
#include <stdlib.h>
static void sweep(double *out, const double *in, int n)
{
#pragma omp parallel for
    for (int i = 1; i < n - 1; i++)
        out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3.0;
}
int main(void)
{
    int n = 5000;
    double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *tmp = NULL;
    for (int i = 0; i < n; i++) a[i] = b[i] = (i * 37 % 101) * 0.01;
    double *r = b, *t = a;
    for (int s = 0; s < 40; s++) {
        sweep(r, t, n);
        tmp = t;
        t = r;
        r = tmp;
    }
    double s = 0.0;
    for (int i = 0; i < n; i++) s += a[i] * (i % 3 + 1);
    printf("%.9f\n", s);
    return 0;
}

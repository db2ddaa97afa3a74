/* A field passed by address as a struct of its sizes and a pointer to its values, the
 * values one of two buffers from an allocating helper that the time loop swaps, as
 * solver codes pass their grids: the loop writes the values, never the struct that
 * points at them. */
#include <stdio.h>
#include <stdlib.h>

#define NX 120
#define NY 80

typedef struct {
    int nx, ny;
    double *u;
} field_t;

static double *alloc_values(int n)
{
    double *v = malloc(sizeof(double) * n);
    if (v == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    return v;
}

static void field_scale(field_t *f, double s)
{
#pragma omp parallel for
    for (int k = 0; k < f->nx * f->ny; k++)
        f->u[k] = s * f->u[k] + 1.0;
}

int main(void)
{
    double *a = alloc_values(NX * NY), *b = alloc_values(NX * NY);
    for (int k = 0; k < NX * NY; k++)
        a[k] = b[k] = k % 9;
    for (int step = 0; step < 4; step++) {
        field_t f = {NX, NY, a};
        field_scale(&f, 0.5);
        double *t = a;
        a = b;
        b = t;
    }
    double sum = 0.0;
    for (int k = 0; k < NX * NY; k++)
        sum += a[k] * (k % 4 + 1) + b[k];
    printf("%.3f\n", sum);
    free(a);
    free(b);
    return 0;
}

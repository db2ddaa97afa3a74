/* A grid hidden behind an init routine, as solver codes write it: main allocates the
   two levels of a Jacobi sweep and hands them to grid_init, which keeps them in the
   struct; a second grid gets its arrays from a helper's own malloc'd locals. The sweeps
   read and write only through the members. */
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    double *u;
    double *unew;
    int n;
} Grid;

typedef struct {
    double *rho;
    double *phi;
    int cells;
} Field;

static void grid_init(Grid *gr, double *u, double *unew, int n)
{
    gr->u = u;
    gr->unew = unew;
    gr->n = n;
}

static int field_alloc(Field *f, int cells)
{
    double *rho = malloc(cells * sizeof *rho);
    double *phi = calloc(cells, sizeof *phi);
    if (!rho || !phi)
        return -1;
    f->rho = rho;
    f->phi = phi;
    f->cells = cells;
    return 0;
}

static void jacobi(Grid *gr)
{
#pragma omp parallel for
    for (int i = 1; i < gr->n - 1; i++)
        gr->unew[i] = 0.5 * (gr->u[i - 1] + gr->u[i + 1]);
}

static void potential(Field *f)
{
#pragma omp parallel for
    for (int c = 1; c < f->cells; c++)
        f->phi[c] = f->rho[c] - 0.5 * f->rho[c - 1];
}

int main(void)
{
    int n = 50000;
    double *u = malloc(n * sizeof *u), *unew = calloc(n, sizeof *unew);
    Grid gr;
    Field f;
    if (!u || !unew || field_alloc(&f, n) != 0)
        return 1;
    for (int i = 0; i < n; i++) {
        u[i] = (i * 37 % 101) * 0.01;
        f.rho[i] = (i % 13) * 0.5;
    }
    grid_init(&gr, u, unew, n);
    jacobi(&gr);
    potential(&f);
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += unew[i] * (i % 7) + f.phi[i];
    printf("%.6f\n", s);
    return 0;
}

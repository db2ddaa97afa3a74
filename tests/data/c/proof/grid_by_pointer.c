/* A flattened transpose-and-add in a solver function taking its grid by pointer: the
   sizes are g->nx and g->ny, read by the loop's own header, so a run-time test may read
   them (that j * nx + i stays distinct needs i = k / ny below nx: at measured sizes). */
#include <stdio.h>
#include <stdlib.h>
struct grid { int nx, ny; double dt; };
static void step(const struct grid *g, double *u, const double *f)
{
#pragma omp parallel for
    for (int k = 0; k < g->nx * g->ny; k++) {
        int i = k / g->ny, j = k % g->ny;
        u[j * g->nx + i] += g->dt * f[i * g->ny + j];
    }
}
int main(int argc, char **argv)
{
    struct grid g = {argc > 1 ? atoi(argv[1]) : 120, argc > 2 ? atoi(argv[2]) : 90, 0.25};
    double *u = calloc((size_t)g.nx * g.ny, sizeof *u), *f = malloc(sizeof *f * g.nx * g.ny);
    for (int p = 0; p < g.nx * g.ny; p++) f[p] = (p % 13) * 0.5;
    for (int t = 0; t < 5; t++) step(&g, u, f);
    double s = 0.0; for (int p = 0; p < g.nx * g.ny; p++) s += u[p] * (p % 7 + 1);
    printf("%.6f\n", s);
    return 0;
}

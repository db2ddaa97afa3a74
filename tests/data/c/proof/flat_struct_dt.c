/* A flattened update sized at run time (k / ny, k % ny: proven only at the measured
   sizes) scaled by a time step kept in a struct, as solvers keep their constants: the
   run-time test may read the sizes, never the double coef.dt. */
#include <stdio.h>
#include <stdlib.h>

static struct {
    double dt;
    int steps;
} coef = {0.25, 5};

int main(int argc, char **argv)
{
    int nx = argc > 1 ? atoi(argv[1]) : 120, ny = argc > 2 ? atoi(argv[2]) : 90;
    double *u = calloc((size_t)nx * ny, sizeof *u), *f = malloc(sizeof *f * nx * ny);
    if (!u || !f)
        return 1;
    for (int p = 0; p < nx * ny; p++)
        f[p] = (p % 13) * 0.5;
    for (int t = 0; t < coef.steps; t++) {
#pragma omp parallel for
        for (int k = 0; k < nx * ny; k++) {
            int i = k / ny, j = k % ny;
            double scale = coef.dt;
            u[i * ny + j] += scale * f[i * ny + j];
        }
    }
    double s = 0.0;
    for (int p = 0; p < nx * ny; p++)
        s += u[p] * (p % 7 + 1);
    printf("%.6f\n", s);
    free(u);
    free(f);
    return 0;
}

/* A heat-diffusion proxy in the style of mini-apps: sizes from -n/-s flags,
   kept in a struct, arrays malloc'd from them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { int nx, ny, steps; } Grid;

static void sweep(const Grid *g, const double *u, double *w)
{
#pragma omp parallel for schedule(static)
    for (int i = 1; i < g->ny - 1; i++)
        for (int j = 1; j < g->nx - 1; j++)
            w[i * g->nx + j] = 0.25 * (u[(i - 1) * g->nx + j] + u[(i + 1) * g->nx + j]
                                       + u[i * g->nx + j - 1] + u[i * g->nx + j + 1]);
}

int main(int argc, char **argv)
{
    Grid g = { 256, 256, 10 };
    for (int a = 1; a + 1 < argc; a += 2) {
        if (!strcmp(argv[a], "-n")) g.nx = g.ny = atoi(argv[a + 1]);
        if (!strcmp(argv[a], "-s")) g.steps = atoi(argv[a + 1]);
    }
    size_t cells = (size_t)g.nx * g.ny;
    double *u = calloc(cells, sizeof(double)), *w = calloc(cells, sizeof(double));
    for (int j = 0; j < g.nx; j++) u[j] = w[j] = 1.0;
    for (int t = 0; t < g.steps; t++) {
        sweep(&g, u, w);
        double *tmp = u; u = w; w = tmp;
    }
    double s = 0.0;
    for (size_t k = 0; k < cells; k++) s += u[k];
    printf("heat %.8e\n", s);
    free(u); free(w);
    return 0;
}

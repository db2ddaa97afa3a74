#include <stdlib.h>
#include "xs.h"

Grid make_grid(Input in)
{
    Grid g;
    g.n = in.grid_points;
    g.energy = malloc(sizeof(double) * g.n);
    g.xs = malloc(sizeof(double) * g.n * in.n_levels);
    for (int k = 0; k < g.n; k++)
        g.energy[k] = (double) k / g.n;
    for (int k = 0; k < g.n * in.n_levels; k++)
        g.xs[k] = 1.0 + 0.001 * (k % 97);
    return g;
}

static int grid_search(const double *energy, int n, double e)
{
    int lo = 0, hi = n - 1;
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (energy[mid] > e)
            hi = mid;
        else
            lo = mid;
    }
    return lo;
}

void macro_xs_vector(Input in, Grid grid, double e, double *xs)
{
    int idx = grid_search(grid.energy, grid.n, e);
    for (int c = 0; c < 5; c++)
        xs[c] = 0.0;
    for (int level = 0; level < in.n_levels; level++)
        xs[level % 5] += grid.xs[idx * in.n_levels + level] * (level + 1);
}

/* Charge deposition with the particle shape's order a run-time option (linear, quadratic,
   cubic B-splines touch 2, 3 or 4 cells): the weights are computed for a fixed window of
   8 cells, and merged into the grid under a lock for the first `order` of them. */
#include <stdio.h>
#include <stdlib.h>
#define NCELL 4096
#define WINDOW 8

static double rho[NCELL + WINDOW], xp[1 << 20];
static int order = 2;

int main(int argc, char **argv)
{
    int np = argc > 1 ? atoi(argv[1]) : 10000, p;
    double q = 0.0;
    if (argc > 2)
        order = atoi(argv[2]);
    if (np > (1 << 20) || order < 1 || order > WINDOW) {
        fprintf(stderr, "usage: %s particles order (1..%d)\n", argv[0], WINDOW);
        return 1;
    }
    for (p = 0; p < np; p++)
        xp[p] = (p * 0.6180339887) - (long)(p * 0.6180339887);
#pragma omp parallel for
    for (p = 0; p < np; p++) {
        double x = xp[p] * NCELL, w[WINDOW], s = 0.0;
        int cell = (int)x, k;
        for (k = 0; k < WINDOW; k++) {
            w[k] = k < order ? 1.0 + (x - cell) * k : 0.0;
            s += w[k];
        }
#pragma omp critical
        for (k = 0; k < order; k++)
            rho[cell + k] += w[k] / s;
    }
    for (p = 0; p < NCELL + WINDOW; p++)
        q += rho[p] * (p % 5);
    printf("charge %.6e\n", q);
    return 0;
}

#include <math.h>
#include "solver.h"

/* A triangular smoother: row i does i units of work, so a static schedule
   leaves threads idle (as in a lower-triangular solve). */
void relax(double *restrict u, const double *restrict f, int sweeps)
{
    for (int s = 0; s < sweeps; s++) {
#pragma omp parallel for schedule(static)
        for (int i = 0; i < NX; i++) {
            double acc = 0.0;
            for (int j = 0; j <= i; j++)
                acc += sqrt(f[j] + 1.0) * 1e-3;
            u[i] = 0.5 * u[i] + acc / (i + 1);
        }
    }
}

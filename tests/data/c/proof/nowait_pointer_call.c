/* A solver that runs its phases through a table of function pointers (as codes with
 * pluggable kernels do): a nowait loop of the region, then the update phase called by
 * pointer, which reads the fluxes row by row: the pair relies on the static mapping,
 * and the proof cannot tell which phase the pointer reaches. */
#include <stdio.h>

#define NROWS 200000

static double q[NROWS], flux[NROWS], u[NROWS];

static void compute_flux(void)
{
#pragma omp for
    for (int i = 0; i < NROWS; i++)
        flux[i] = 0.5 * q[i] * q[i] + 1.0;
}

static void update(void)
{
#pragma omp for
    for (int i = 0; i < NROWS; i++)
        u[i] = q[i] - 0.1 * flux[i];
}

static void (*phases[2])(void) = {compute_flux, update};

int main(void)
{
    for (int i = 0; i < NROWS; i++)
        q[i] = (i % 17) * 0.25;
#pragma omp parallel
    {
#pragma omp for nowait
        for (int i = 0; i < NROWS; i++)
            flux[i] = 0.25 * q[i];
        phases[1]();
    }
    double s = 0.0;
    for (int i = 0; i < NROWS; i++)
        s += u[i];
    printf("checksum %.17g\n", s);
    return 0;
}

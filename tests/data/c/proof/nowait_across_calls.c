/* A solver step split into functions, as BT splits compute_rhs and the solves: the
 * flux function ends with an 'omp for nowait' and no barrier, so the team runs straight
 * into whatever the caller does next. What comes next reads the fluxes row by row and is
 * correct only because every loop maps row i to the same thread (static, same trip
 * count): a loop in the region itself, the update in another function (a caller may
 * run it right after the flux), in the second region a nowait loop of the region
 * followed by that update, and in the third a loop after a wrapper that calls the flux
 * function last. */
#include <stdio.h>

#define NROWS 200000

static double q[NROWS], flux[NROWS], u[NROWS], res[NROWS];

static void compute_flux(void)
{
#pragma omp for nowait
    for (int i = 0; i < NROWS; i++)
        flux[i] = 0.5 * q[i] * q[i] + 1.0;
}

static void update(void)
{
#pragma omp for
    for (int i = 0; i < NROWS; i++)
        u[i] = q[i] - 0.1 * flux[i];
}

static void flux_step(void)
{
    compute_flux();
}

int main(void)
{
    for (int i = 0; i < NROWS; i++)
        q[i] = (i % 17) * 0.25;
#pragma omp parallel
    {
        compute_flux();
#pragma omp for
        for (int i = 0; i < NROWS; i++)
            res[i] = flux[i] - q[i];
        update();
    }
#pragma omp parallel
    {
#pragma omp for nowait
        for (int i = 0; i < NROWS; i++)
            flux[i] = 0.25 * q[i] + u[i];
        update();
    }
#pragma omp parallel
    {
        flux_step();
#pragma omp for
        for (int i = 0; i < NROWS; i++)
            res[i] = res[i] + flux[i];
    }
    double s = 0.0;
    for (int i = 0; i < NROWS; i++)
        s += u[i] + res[i];
    printf("checksum %.17g\n", s);
    return 0;
}

/* A particle push whose last particle feeds the outflow boundary: the push loop keeps
   the last particle's new position (lastprivate) and ends with nowait; the boundary
   loop reads it at its own last iteration. That is right as written: under the static
   schedule the thread that pushed the last particle copies its position out before
   it runs the last iteration of the next loop. Under another schedule another thread
   may run that iteration first. Particles in the far half of the domain take more
   work (a sub-cycled push), so the threads finish the push at different times. The
   packing loop after it hands its cursor (linear) to the next loop the same way. */
#include <math.h>
#include <stdio.h>
#define NP 1000000

static double x[NP], v[NP], w[NP], packed[NP];

int main(void)
{
    int i;
    double xlast = 0.0, total = 0.0;
    for (i = 0; i < NP; i++) {
        x[i] = (double)i / NP;
        v[i] = 1.0 + (i % 13) * 0.5;
    }
#pragma omp parallel
    {
#pragma omp for lastprivate(xlast) nowait
        for (i = 0; i < NP; i++) {
            double xi = x[i];
            int sub = xi > 0.5 ? 100 : 1;
            for (int k = 0; k < sub; k++)
                xi = xi + 1e-3 * v[i] / sub + 1e-9 * sqrt(xi * xi + 1.0);
            x[i] = xi;
            xlast = xi;
        }
#pragma omp for
        for (i = 0; i < NP; i++)
            w[i] = v[i] * (i == NP - 1 ? xlast : 1.0);
    }
    int slot = 0; /* the packing cursor, linear in i, copied out at the loop's end */
#pragma omp parallel
    {
#pragma omp for linear(slot : 1) nowait
        for (i = 0; i < NP; i++) {
            double xi = w[i];
            int sub = i > NP / 2 ? 100 : 1;
            for (int k = 0; k < sub; k++)
                xi = xi + 1e-9 * sqrt(xi * xi + 1.0);
            packed[slot] = xi;
            slot++;
        }
#pragma omp for
        for (i = 0; i < NP; i++)
            v[i] = (i == NP - 1) ? v[i] + slot : v[i];
    }
    for (i = 0; i < NP; i++)
        total += w[i] + x[i] + packed[i] + v[i];
    printf("total %.9e last %.9e\n", total, xlast);
    return 0;
}

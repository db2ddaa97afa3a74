/* A time-stepping code that keeps its bookkeeping in helper functions called inside the
   parallel region, after an update loop that ends with nowait. record() copies a probe
   point of the global grid into the history under master; set_inflow() has the master
   thread reset the inflow cell of the grid it is passed; seal_wall() zeroes the flux
   through the wall under master before the update loop reads it. All are right as
   written: under the static schedule the master thread itself runs the iterations that
   write the probe, read the inflow cell and read the wall's flux. Under another
   schedule another thread may run them, before or after the master. The same holds
   for the master clearing the first cells of the grid with memset after a nowait
   loop that reads them. */
#include <stdio.h>
#include <string.h>
#define N 400000
#define STEPS 20

static double grid[N], next[N], flux[N], history[STEPS];

static void seal_wall(void)
{
#pragma omp master
    flux[0] = 0.0;
}

static void record(int t)
{
#pragma omp master
    history[t] = next[N / 8];
}

static void set_inflow(double *u, int t)
{
#pragma omp master
    u[0] = 1.0 + 0.01 * t;
}

int main(void)
{
    int i, t;
    double mass = 0.0;
    for (i = 0; i < N; i++)
        grid[i] = next[i] = (i % 100) * 0.01;
    for (t = 0; t < STEPS; t++) {
#pragma omp parallel
        {
#pragma omp for nowait
            for (i = 1; i < N - 1; i++)
                next[i] = 0.5 * grid[i] + 0.25 * (grid[i - 1] + grid[i + 1]);
            record(t);
        }
#pragma omp parallel
        {
#pragma omp for nowait
            for (i = 0; i < N; i++)
                flux[i] = 0.5 * next[i] * next[i];
            set_inflow(next, t);
        }
#pragma omp parallel
        {
            seal_wall();
#pragma omp for
            for (i = 1; i < N - 1; i++)
                grid[i] = next[i] - 0.001 * flux[i - 1];
        }
    }
#pragma omp parallel
    {
#pragma omp for nowait
        for (i = 0; i < N; i++)
            flux[i] = 0.5 * grid[i];
#pragma omp master
        memset(grid, 0, 4 * sizeof(double));
    }
    for (i = 0; i < N; i++)
        mass += (grid[i] + flux[i]) * (i % 3);
    for (t = 0; t < STEPS; t += 5)
        printf("step %2d: %.10f\n", t, history[t]);
    printf("mass %.10e\n", mass);
    return 0;
}

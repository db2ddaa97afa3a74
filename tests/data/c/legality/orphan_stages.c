/* Two stages of a right-hand side in a function the solver's parallel region calls
   every step, as NAS BT and SP split theirs into orphaned worksharing loops. The flux
   loop ends with nowait because the residual loop after it reads only the fluxes of its
   own iterations: right while both loops hand iteration i to the same thread, which
   OpenMP promises for one static schedule. The residual loop leans on that promise as
   much as the flux loop does, though it carries no nowait of its own. */
#include <math.h>
#include <stdio.h>
#define N 200000
#define STEPS 8

static double q[N], flux[N], rhs[N];

static void compute_rhs(double dt)
{
    int i;
#pragma omp for nowait
    for (i = 0; i < N; i++)
        flux[i] = 0.5 * q[i] * q[i] + sin(q[i]);
#pragma omp for
    for (i = 0; i < N; i++)
        rhs[i] = q[i] - dt * flux[i];
}

static void add(void)
{
    int i;
#pragma omp for
    for (i = 0; i < N; i++)
        q[i] = 0.9 * rhs[i] + 0.1 * q[i];
}

int main(void)
{
    int i, step;
    double norm = 0.0;
    for (i = 0; i < N; i++)
        q[i] = 1.0 + 0.5 * cos(0.001 * i);
#pragma omp parallel private(step)
    for (step = 0; step < STEPS; step++) {
        compute_rhs(0.01);
        add();
    }
    for (i = 0; i < N; i++)
        norm += q[i] * (i % 9);
    printf("norm %.12e\n", norm);
    return 0;
}

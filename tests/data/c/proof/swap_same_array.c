/* A time-step loop whose buffer "swap" leaves both pointers on one array: from the
   second step on, the stencil updates in place, and what a row reads depends on
   whether its neighbour's thread got there first. The proof's failure is bounded by
   the step loop's own bound (t < STEPS): no test of t stands for a size. */
#include <stdio.h>
#include <stdlib.h>

#define NPTS 1000
#define STEPS 10

int main(void)
{
    double *u = malloc(NPTS * sizeof(double)), *unew = malloc(NPTS * sizeof(double));
    for (int i = 0; i < NPTS; i++)
        u[i] = unew[i] = i % 9;
    for (int t = 0; t < STEPS; t++) {
#pragma omp parallel for
        for (int i = 1; i < NPTS - 1; i++)
            unew[i] = (u[i - 1] + u[i] + u[i + 1]) / 3.0;
        u = unew;
    }
    double s = 0.0;
    for (int i = 0; i < NPTS; i++)
        s += u[i] * (i % 4);
    printf("%.17g\n", s);
    return 0;
}

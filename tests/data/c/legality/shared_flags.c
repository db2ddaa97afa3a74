/* A convergence test in the style of iterative solvers: a shared flag set to
   a constant, the same value whichever thread writes last (allowed). */
#include <stdio.h>
#include <math.h>

#define N 50000
static double r[N];

int main(void)
{
    int converged = 1;
    for (int i = 0; i < N; i++)
        r[i] = fabs(sin(0.001 * i)) * 1e-3;
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        if (r[i] > 9.9e-4)
            converged = 0;
    printf("converged %d\n", converged);
    return 0;
}

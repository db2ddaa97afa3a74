/* A convergence test in the style of iterative solvers: a shared flag set to
   a constant (the same whoever writes last) and, in a second loop, the index
   of "a" residual over the tolerance kept in a shared variable (whichever
   thread writes last decides which index is printed). */
#include <stdio.h>
#include <math.h>

#define N 50000
static double r[N];

int main(void)
{
    int converged = 1, where = -1;
    for (int i = 0; i < N; i++)
        r[i] = fabs(sin(0.001 * i)) * 1e-3;
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        if (r[i] > 9.9e-4)
            converged = 0;
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        if (r[i] > 9.9e-4)
            where = i;
    printf("converged %d, a residual over tolerance at %d\n", converged, where);
    return 0;
}

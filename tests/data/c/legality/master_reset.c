/* A Jacobi sweep that resets its residual in a master block and sums it in the loop's
   reduction: master has no barrier, so a thread that finishes its share early can
   combine its part into resid before the master thread has set it to zero, and loses
   it. Which thread finishes when is what a schedule or a team size changes. */
#include <stdio.h>
#define N 200000
#define ITERS 10

static double u[N], unew[N];

int main(void)
{
    double resid = 0.0;
    int i, it;
    for (i = 0; i < N; i++)
        u[i] = unew[i] = (i % 50) * 0.02;
    for (it = 0; it < ITERS; it++) {
#pragma omp parallel
        {
#pragma omp master
            resid = 0.0;
#pragma omp for reduction(+ : resid)
            for (i = 1; i < N - 1; i++) {
                unew[i] = 0.5 * (u[i - 1] + u[i + 1]);
                resid += (unew[i] - u[i]) * (unew[i] - u[i]);
            }
#pragma omp for
            for (i = 1; i < N - 1; i++)
                u[i] = unew[i];
        }
        printf("iteration %d: residual %.8e\n", it, resid);
    }
    return 0;
}

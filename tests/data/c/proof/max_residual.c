/* The largest residual of a relaxation sweep, as solvers report it (NAS, Rodinia):
   reduction(max) over an expression, not a variable. Any order gives the same maximum. */
#include <math.h>
#include <stdio.h>

#define N 100000

static double u[N], unew[N], f[N];

int main(void)
{
    for (int i = 0; i < N; i++) {
        u[i] = (i % 17) * 0.25;
        f[i] = (i % 5) * 0.1;
    }
    double rmax = 0.0;
    int worst_bucket = 0;
#pragma omp parallel for reduction(max : rmax, worst_bucket)
    for (int i = 1; i < N - 1; i++) {
        unew[i] = 0.5 * (u[i - 1] + u[i + 1] - f[i]);
        if (fabs(unew[i] - u[i]) > rmax)
            rmax = fabs(unew[i] - u[i]);
        if ((int)(unew[i] * 4.0) % 11 > worst_bucket)
            worst_bucket = (int)(unew[i] * 4.0) % 11;
    }
    printf("%.12f %d %.6f\n", rmax, worst_bucket, unew[N / 2]);
    return 0;
}

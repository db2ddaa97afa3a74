/* A relaxation step in a function the solver's parallel region calls every sweep, as
   iterative codes write them: the residual loop runs with nowait, and the step returns
   early once the solver has converged, skipping the barrier and the update. The loop
   after the call in the region reads the residuals row by row: right as written, since
   under the static schedule each thread reads the rows it computed itself. Under
   another schedule another thread may read a row before it is written. Rows past the
   middle take longer (a sub-cycled source term), so the threads finish at different
   times. */
#include <math.h>
#include <stdio.h>
#define N 400000

static double q[N], resid[N], out[N];
static int converged;

static void relax(void)
{
    int i;
#pragma omp for nowait
    for (i = 0; i < N; i++) {
        double r = q[i];
        int sub = i > N / 2 ? 60 : 1;
        for (int k = 0; k < sub; k++)
            r = r + 1e-9 * sqrt(r * r + 1.0);
        resid[i] = r - q[i];
    }
    if (converged)
        return;
#pragma omp barrier
#pragma omp for
    for (i = 0; i < N; i++)
        q[i] = q[i] - 0.5 * resid[i];
}

int main(int argc, char **argv)
{
    int i;
    double s = 0.0;
    for (i = 0; i < N; i++)
        q[i] = (i % 7) * 0.1 + 1.0;
    converged = argc < 2;
#pragma omp parallel
    {
        relax();
#pragma omp for
        for (i = 0; i < N; i++)
            out[i] = q[i] + 1e6 * resid[i];
    }
    for (i = 0; i < N; i++)
        s += out[i] * (i % 3);
    printf("%.10e\n", s);
    return 0;
}

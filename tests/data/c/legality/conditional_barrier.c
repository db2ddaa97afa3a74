/* Barriers some paths do not pass. A solver synchronises after its residual loop only
   when asked to (a debugging switch), and a smoother runs a number of sweeps read from
   the command line, each ending at a barrier, that may be none. Without an argument
   neither barrier is reached, and the loop after each reads the residuals of a nowait
   loop row by row: right as written, since under the static schedule each thread
   reads the rows it computed itself. Under another schedule another thread may read a
   row before it is written. Rows past the middle take longer (a sub-cycled source
   term), so the threads finish at different times. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#define N 400000

static double q[N], resid[N], out[N], smooth[N];

static double source(int i, double r)
{
    int sub = i > N / 2 ? 60 : 1;
    for (int k = 0; k < sub; k++)
        r = r + 1e-9 * sqrt(r * r + 1.0);
    return r;
}

int main(int argc, char **argv)
{
    int i, it;
    double s = 0.0;
    int sync = argc > 1;
    int sweeps = argc > 1 ? atoi(argv[1]) : 0;
    for (i = 0; i < N; i++)
        q[i] = (i % 7) * 0.1 + 1.0;
#pragma omp parallel
    {
#pragma omp for nowait
        for (i = 0; i < N; i++)
            resid[i] = source(i, q[i]) - q[i];
        if (sync) {
#pragma omp barrier
        }
#pragma omp for
        for (i = 0; i < N; i++)
            out[i] = q[i] + 1e6 * resid[i];
    }
#pragma omp parallel private(it)
    {
#pragma omp for nowait
        for (i = 0; i < N; i++)
            resid[i] = source(i, out[i]) - out[i];
        for (it = 0; it < sweeps; it++) {
#pragma omp barrier
#pragma omp single
            smooth[0] += 1.0;
        }
#pragma omp for
        for (i = 0; i < N; i++)
            smooth[i] += out[i] + 1e6 * resid[i];
    }
    for (i = 0; i < N; i++)
        s += smooth[i] * (i % 3);
    printf("%.10e\n", s);
    return 0;
}

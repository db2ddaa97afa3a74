/* An iterative solver inside one parallel region, as codes write them to keep the team
   alive across sweeps: the residual loop runs with nowait, the sweep loop leaves once
   the iteration limit is reached, before the barrier and the update, and the loop after
   it reads the residuals row by row. Right as written: under the static schedule each
   thread reads the rows it computed itself. Under another schedule another thread may
   read a row before it is written. Rows past the middle take longer (a sub-cycled
   source term), so the threads finish the residuals at different times. */
#include <math.h>
#include <stdio.h>
#define N 400000
#define SWEEPS 10

static double q[N], resid[N], out[N];

int main(int argc, char **argv)
{
    int i, it;
    double s = 0.0;
    int limit = argc > 1 ? 4 : 0;
    for (i = 0; i < N; i++)
        q[i] = (i % 7) * 0.1 + 1.0;
#pragma omp parallel private(it)
    {
        for (it = 0; it < SWEEPS; it++) {
#pragma omp for nowait
            for (i = 0; i < N; i++) {
                double r = q[i];
                int sub = i > N / 2 ? 60 : 1;
                for (int k = 0; k < sub; k++)
                    r = r + 1e-9 * sqrt(r * r + 1.0);
                resid[i] = r - q[i];
            }
            if (it >= limit)
                break;
#pragma omp barrier
#pragma omp for
            for (i = 0; i < N; i++)
                q[i] = q[i] - 0.5 * resid[i];
        }
#pragma omp for
        for (i = 0; i < N; i++)
            out[i] = q[i] + 1e6 * resid[i];
    }
    for (i = 0; i < N; i++)
        s += out[i] * (i % 3);
    printf("%.10e\n", s);
    return 0;
}

/* A time-stepping loop that records a probe point while the threads run on: the update
   loop ends with nowait, and the master thread copies the value at the probe (an eighth
   of the way along the grid) into the history before the region's closing barrier.
   Under the static schedule and up to eight threads the master thread computed that
   point itself; with more threads another one does, and the master may copy it before
   it is written. */
#include <stdio.h>
#define N 400000
#define STEPS 20

static double ua[N], ub[N], history[STEPS];

int main(void)
{
    double *u = ua, *unew = ub, *tmp;
    int i, t;
    for (i = 0; i < N; i++)
        ua[i] = ub[i] = (i % 100) * 0.01;
    for (t = 0; t < STEPS; t++) {
#pragma omp parallel
        {
#pragma omp for nowait
            for (i = 1; i < N - 1; i++)
                unew[i] = 0.5 * u[i] + 0.25 * (u[i - 1] + u[i + 1]);
#pragma omp master
            history[t] = unew[N / 8];
        }
        tmp = u;
        u = unew;
        unew = tmp;
    }
    for (t = 0; t < STEPS; t += 5)
        printf("step %2d: %.10f\n", t, history[t]);
    return 0;
}

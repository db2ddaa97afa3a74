/* A predictor-corrector step with one parallel region per time step: the predictor
   skips its barrier (nowait) because the corrector reads, at each point, only what
   the same iteration predicted, and its neighbour at the step before, which the
   region of the step before finished. Race-free as written: both loops keep their
   static schedule (the same iterations on the same threads). */
#include <stdio.h>
#define STEPS 30
#define N 50000

static double u[STEPS + 1][N], pred[N];

int main(void)
{
    int t, i;
    double mass = 0.0;
    for (i = 0; i < N; i++)
        u[0][i] = (i % 97) * 0.01;
    for (t = 0; t < STEPS; t++) {
#pragma omp parallel
        {
#pragma omp for nowait
            for (i = 0; i < N - 1; i++)
                pred[i] = u[t][i] - 0.3 * (u[t][i + 1] - u[t][i]);
#pragma omp for
            for (i = 0; i < N - 1; i++)
                u[t + 1][i] = 0.5 * (u[t][i] + pred[i]) - 0.15 * (pred[i] - u[t][i + 1]);
        }
    }
    for (i = 0; i < N; i++)
        mass += u[STEPS][i];
    printf("mass %.10e\n", mass);
    return 0;
}

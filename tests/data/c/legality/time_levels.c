/* Explicit diffusion keeping every time level (for a movie of the rod): one parallel
   region around the time loop, one worksharing loop per step. Leaving out the barrier
   with nowait is a hand optimisation that is right for a point update but not for a
   stencil: a thread reads u[t][i - 1] and u[t][i + 1] at the edges of its block, which
   its neighbours write in the step before, maybe not yet. That version runs only when
   asked (an argument), so its race cannot change what the program prints by default. */
#include <stdio.h>
#define N 100000
#define STEPS 40

static double u[STEPS + 1][N];

static void sweep_nowait(int threads)
{
    int t, i;
#pragma omp parallel private(t) if (threads > 1)
    for (t = 0; t < STEPS; t++) {
#pragma omp for nowait
        for (i = 1; i < N - 1; i++)
            u[t + 1][i] = u[t][i] + 0.25 * (u[t][i - 1] - 2.0 * u[t][i] + u[t][i + 1]);
    }
}

static void sweep(void)
{
    int t, i;
#pragma omp parallel private(t)
    for (t = 0; t < STEPS; t++) {
#pragma omp for
        for (i = 1; i < N - 1; i++)
            u[t + 1][i] = u[t][i] + 0.25 * (u[t][i - 1] - 2.0 * u[t][i] + u[t][i + 1]);
    }
}

int main(int argc, char **argv)
{
    int i;
    double heat = 0.0;
    for (i = 0; i < N; i++)
        u[0][i] = (i > N / 3 && i < 2 * N / 3) ? 1.0 : 0.0;
    if (argc > 1)
        sweep_nowait(2);
    else
        sweep();
    for (i = 0; i < N; i++)
        heat += u[STEPS][i] * (i % 7);
    printf("heat %.10e\n", heat);
    return 0;
}

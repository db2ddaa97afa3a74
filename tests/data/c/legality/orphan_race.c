/* A time step split into a function the parallel region calls: the stencil writes the
   next level and a smoothing loop after it, chained by nowait, reads its neighbours'
   cells of that level, which another thread may not have written yet. That is a race
   as written; its timing follows every loop the team runs, the weight loop of the
   region too. The racy step runs only when asked (an argument); by default the step
   ends at a barrier after each loop. */
#include <stdio.h>
#define N 100000
#define STEPS 20

static double u[STEPS + 1][N], s[N], w[N];

static void step_nowait(int t)
{
    int i;
#pragma omp for nowait
    for (i = 1; i < N - 1; i++)
        u[t + 1][i] = u[t][i] + 0.25 * (u[t][i - 1] - 2.0 * u[t][i] + u[t][i + 1]);
#pragma omp for nowait
    for (i = 1; i < N - 1; i++)
        s[i] = 0.5 * u[t + 1][i] + 0.25 * (u[t + 1][i - 1] + u[t + 1][i + 1]);
#pragma omp barrier
}

static void step(int t)
{
    int i;
#pragma omp for
    for (i = 1; i < N - 1; i++)
        u[t + 1][i] = u[t][i] + 0.25 * (u[t][i - 1] - 2.0 * u[t][i] + u[t][i + 1]);
#pragma omp for
    for (i = 1; i < N - 1; i++)
        s[i] = 0.5 * u[t + 1][i] + 0.25 * (u[t + 1][i - 1] + u[t + 1][i + 1]);
}

static void run(int racy)
{
    int i, t;
#pragma omp parallel private(t) if (racy > 0)
    {
#pragma omp for
        for (i = 0; i < N; i++)
            w[i] = 1.0 + (i % 7);
        for (t = 0; t < STEPS; t++)
            step_nowait(t);
    }
}

static void run_safe(void)
{
    int i, t;
#pragma omp parallel private(t)
    {
#pragma omp for
        for (i = 0; i < N; i++)
            w[i] = 1.0 + (i % 7);
        for (t = 0; t < STEPS; t++)
            step(t);
    }
}

int main(int argc, char **argv)
{
    int i;
    double heat = 0.0;
    for (i = 0; i < N; i++)
        u[0][i] = (i > N / 3 && i < 2 * N / 3) ? 1.0 : 0.0;
    if (argc > 1)
        run(argc);
    else
        run_safe();
    for (i = 0; i < N; i++)
        heat += u[STEPS][i] * w[i] + s[i];
    printf("heat %.10e\n", heat);
    return 0;
}

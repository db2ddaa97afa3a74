/* EP's set-up with a helper that reads the scratch back: the threadprivate x is cleared
 * by a parallel loop (each thread clears the part its iterations cover), then the
 * master's copy is read. Which elements the master cleared depends on the schedule and
 * the thread count: at 1 thread every element, at 2 only the first half. */
#include <stdio.h>
#define NK 256
static double x[2 * NK];
#pragma omp threadprivate(x)

static void fill(int n, double seed, double y[])
{
    for (int i = 1; i <= n; i++)
        y[i] = (seed * i - (long)(seed * i));
}

static double ends_of(double y[])
{
    return y[0] + y[2 * NK - 1];
}

int main(void)
{
#pragma omp parallel for
    for (int i = 0; i < 2 * NK; i++)
        x[i] = -1.0e99 * (i + 1);
    fill(0, 0.5, x);
    printf("%g\n", ends_of(x));
    return 0;
}

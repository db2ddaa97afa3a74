/* NPB EP's set-up: the threadprivate scratch is cleared by a parallel loop (each thread
 * clears the part its iterations cover), handed to the generator with n = 0 (which only
 * stores through it) and copied into every thread with copyin; every iteration of the
 * main loop fills it before reading it, so what the clearing loop left is never read. */
#include <stdio.h>
#define NK 256
#define NQ 10
static double x[2 * NK];
#pragma omp threadprivate(x)

static void fill(int n, double seed, double y[])
{
    for (int i = 1; i <= n; i++)
        y[i] = (seed * i - (long)(seed * i)) ;
}

int main(void)
{
#pragma omp parallel for
    for (int i = 0; i < 2 * NK; i++)
        x[i] = -1.0e99;
    fill(0, 0.5, x);
    double q[NQ] = {0};
    double sx = 0.0;
    int np = 64;
#pragma omp parallel copyin(x)
    {
        double qq[NQ];
        int l, i;
        for (i = 0; i < NQ; i++)
            qq[i] = 0.0;
#pragma omp for reduction(+ : sx)
        for (int k = 1; k <= np; k++) {
            fill(2 * NK, 0.1234 * k, x - 1);
            for (i = 0; i < NK; i++) {
                double t = x[2 * i] + x[2 * i + 1];
                l = (int)(t * 4.0) % NQ;
                qq[l] += 1.0;
                sx = sx + t;
            }
        }
#pragma omp critical
        {
            for (i = 0; i < NQ; i++)
                q[i] += qq[i];
        }
    }
    printf("%.6f", sx);
    for (int i = 0; i < NQ; i++)
        printf(" %.0f", q[i]);
    printf("\n");
    return 0;
}

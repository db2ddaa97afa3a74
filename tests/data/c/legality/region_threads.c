/* One region, two loops and a per-thread report: num_threads is the region's. */
#include <stdio.h>

#define N 100000
static double u[N], v[N];

int main(void)
{
    long visits = 0;
#pragma omp parallel num_threads(2)
    {
#pragma omp atomic
        visits++;
#pragma omp for schedule(static)
        for (int i = 0; i < N; i++)
            u[i] = 1.0 / (i + 1.0);
#pragma omp for schedule(static)
        for (int i = 0; i < N; i++)
            v[i] = u[N - 1 - i] * 3.0;
    }
    double s = 0.0;
    for (int i = 0; i < N; i++)
        s += v[i];
    printf("visits %ld, s %.10f\n", visits, s);
    return 0;
}

/* A hand-written reduction: private partial sums, then a critical update of
   the total. The loop's schedule may change; the region's thread count may
   not be varied per loop (the critical section runs once per thread). */
#include <stdio.h>
#include <math.h>

#define N 200000
static double x[N];

static double weight(double v)
{
    return exp(-v * v) + 1.0 / (1.0 + fabs(v));
}

int main(void)
{
    double total = 0.0;
    for (int i = 0; i < N; i++)
        x[i] = (i % 1000) / 250.0 - 2.0;
#pragma omp parallel
    {
        double local = 0.0;
#pragma omp for nowait
        for (int i = 0; i < N; i++)
            local += weight(x[i]);
#pragma omp critical
        total += local;
    }
    printf("total = %.8e\n", total);
    return 0;
}

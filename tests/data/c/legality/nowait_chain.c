/* Two worksharing loops in one region, the second reading what the first
   wrote: correct only because both use the same static schedule (a common
   hand optimisation in stencil and CFD codes to skip a barrier). */
#include <stdio.h>
#include <math.h>

#define N 200000
static double a[N], b[N];

int main(void)
{
    double sum = 0.0;
#pragma omp parallel
    {
#pragma omp for schedule(static) nowait
        for (int i = 0; i < N; i++)
            a[i] = sqrt((double)i) * 1.5 + sin((double)i);
#pragma omp for schedule(static) reduction(+:sum)
        for (int i = 0; i < N; i++) {
            b[i] = 2.0 * a[i];
            sum += b[i];
        }
    }
    printf("sum = %.10e\n", sum);
    return 0;
}

/* STREAM-style: independent kernels in one region, each with nowait because
   no later loop reads what it writes before the region's closing barrier. */
#include <stdio.h>

#define N 100000
static double a[N], b[N], c[N], d[N];

int main(void)
{
    for (int i = 0; i < N; i++) {
        a[i] = 1.0 + i % 17;
        b[i] = 2.0 - i % 5;
    }
#pragma omp parallel
    {
#pragma omp for schedule(static) nowait
        for (int i = 0; i < N; i++)
            c[i] = a[i] + 3.0 * b[i];
#pragma omp for schedule(static) nowait
        for (int i = 0; i < N; i++)
            d[i] = a[i] * b[i];
    }
    double s = 0.0;
    for (int i = 0; i < N; i++)
        s += c[i] - 0.5 * d[i];
    printf("s = %.6f\n", s);
    return 0;
}

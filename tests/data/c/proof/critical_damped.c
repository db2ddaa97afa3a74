/* A damped running peak kept under a lock: a new peak is recorded at half its size,
   so which values count as peaks follows the order the threads enter. */
#include <stdio.h>

#define N 10000

static double a[N];

int main(void)
{
    int i;
    double m = 0.0;
    for (i = 0; i < N; i++)
        a[i] = (double)((i * 7919) % 1000);
#pragma omp parallel for
    for (i = 0; i < N; i++) {
        double v = a[i];
#pragma omp critical
        if (v > m)
            m = v * 0.5;
    }
    printf("%.6f\n", m);
    return 0;
}

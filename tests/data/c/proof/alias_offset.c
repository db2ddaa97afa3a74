/* A smoothing pass written through a shifted pointer: p[i] is a[i + 1], so each
 * iteration writes the element the next one reads (a recurrence in disguise). */
#include <stdio.h>
#define N 20000
static double a[N + 1];

int main(void)
{
    double *p = a + 1;
    for (int i = 0; i <= N; i++)
        a[i] = (i % 7) * 0.5;
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        p[i] = a[i] * 0.5 + 1.0;
    double s = 0.0;
    for (int i = 0; i <= N; i++)
        s += a[i] * (i % 5);
    printf("%.6f\n", s);
    return 0;
}

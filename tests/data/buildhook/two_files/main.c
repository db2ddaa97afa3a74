#include <stdio.h>

#define M 5000
double fill(double *a, int n);

static double a[M];

int main(void)
{
    int i;
    double s = 0.0;
#pragma omp parallel for schedule(static)
    for (i = 0; i < M; i++)
        a[i] = (i % 13) * 0.25;
    s = fill(a, M);
    printf("%.2f\n", s);
    return 0;
}

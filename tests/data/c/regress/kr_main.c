#include <stdio.h>
#define N 50000
static double v[N];

double norm(n, x)
int n;
double *x;
{
    double s = 0.0;
    int i;
#pragma omp parallel for reduction(+:s)
    for (i = 0; i < n; i++)
        s += x[i] * x[i];
    return s;
}

main(argc, argv)
int argc;
char **argv;
{
    int i;
#pragma omp parallel for
    for (i = 0; i < N; i++)
        v[i] = 1.0 / (i + 1);
    printf("%.10f %d\n", norm(N, v), argc);
    return 0;
}

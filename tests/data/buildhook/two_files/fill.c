#define M 5000

/* Elementwise, then a sequential sum: the same result under any schedule. */
double fill(double *a, int n)
{
    int i;
    double s = 0.0;
#pragma omp parallel for schedule(static)
    for (i = 0; i < M; i++)
        a[i] = a[i] * 2.0 + 1.0;
    for (i = 0; i < n; i++)
        s += a[i];
    return s;
}

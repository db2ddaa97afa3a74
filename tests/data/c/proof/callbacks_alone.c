/* A map over a vector compiled alone, as a library's file: its callers, and the
 * functions they hand it, are in files the analysis does not see. */
#include <math.h>

static double halve(double x) { return 0.5 * x; }

void map(double *v, int n, double (*f)(double))
{
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n; i++)
        v[i] = f(v[i]);
}

void halve_all(double *v, int n) { map(v, n, halve); }

/* Valid C without any OpenMP: the front end must find no loops to tune. */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 500
#endif

static double v[N];

static double sum_squares(const double *x, int n)
{
    double s = 0.0;
    int i;
    for (i = 0; i < n; i++)
        s += x[i] * x[i];
    return s;
}

int main(void)
{
    int i;
    for (i = 0; i < N; i++)
        v[i] = (double)i / N;
#ifdef _OPENMP
    /* no pragma here either: this branch only documents the intent */
#endif
    printf("checksum: %.12e\n", sum_squares(v, N));
    return 0;
}

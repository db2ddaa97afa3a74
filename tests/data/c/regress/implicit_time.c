/* Older codes call library functions without the header that declares them (Rodinia's
   particle filter seeds with time(0) and never includes <time.h>): gcc 12 compiles
   them with a warning, and the declaration C89 implies is int time(). */
#include <stdio.h>
#include <stdlib.h>
#define N 200000
static double x[N], y[N];

int main(int argc, char *argv[])
{
    long start = time(0);
    int i, n = argc > 1 ? atoi(argv[1]) : N;
    double s = 0.0;
#pragma omp parallel for
    for (i = 0; i < n; i++) {
        x[i] = (i % 17) * 0.5;
        y[i] = 2.0 * x[i] + 1.0;
    }
#pragma omp parallel for reduction(+ : s)
    for (i = 0; i < n; i++)
        s += x[i] * y[i];
    printf("%.6e\n", s);
    fprintf(stderr, "took %ld s\n", (long)time(0) - start);
    return 0;
}

# include <stdio.h>
# include <math.h>
# include <float.h>
# include <limits.h>
# define N 200000
# define NTIMES 4
# ifndef MIN
# define MIN(x,y) ((x)<(y)?(x):(y))
# endif
# define abs(a) ((a) >= 0 ? (a) : -(a))
static double a[N], b[N], c[N];
int main()
{
    int j, k;
    double scalar = 3.0, err = 0.0;
#pragma omp parallel for
    for (j = 0; j < N; j++) { a[j] = 1.0; b[j] = 2.0; c[j] = 0.0; }
    for (k = 0; k < NTIMES; k++) {
#pragma omp parallel for
        for (j = 0; j < N; j++)
            a[j] = b[j] + scalar * c[j];
    }
    for (j = 0; j < N; j++) err += abs(a[j] - 1.0);
    printf("Solution Validates: avg error %e, min %d\n", err / N, MIN(3, 4));
    return 0;
}

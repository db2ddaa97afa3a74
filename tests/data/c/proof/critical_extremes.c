/* Largest and smallest residual kept under a lock, as codes wrote it before
   reduction(max) reached C: an if-test, fmax, and a MIN macro. */
#include <math.h>
#include <stdio.h>

#define N 100000
#define MIN(a, b) ((a) < (b) ? (a) : (b))

static double r[N];

int main(void)
{
    int i;
    double peak = 0.0, top = -1e300, low = 1e300;
    for (i = 0; i < N; i++)
        r[i] = sin(i * 0.01) * (i % 97);
#pragma omp parallel for
    for (i = 0; i < N; i++) {
        double v = fabs(r[i]);
#pragma omp critical
        {
            if (v > peak)
                peak = v;
        }
    }
#pragma omp parallel for
    for (i = 0; i < N; i++) {
#pragma omp critical
        top = fmax(top, r[i]);
    }
#pragma omp parallel for
    for (i = 0; i < N; i++) {
        double v = r[i] * r[i];
#pragma omp critical
        low = MIN(low, v);
    }
    printf("%.6f %.6f %.6f\n", peak, top, low);
    return 0;
}

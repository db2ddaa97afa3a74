/* A domain check reported with perror after the loop: perror prints the message of the
   master thread's errno, which a failing sqrt set only if the master ran it. */
#include <math.h>
#include <stdio.h>

#define N 100000

static double x[N], y[N];

int main(void)
{
    int i, bad = 0;
    for (i = 0; i < N; i++)
        x[i] = (i == 12345) ? -4.0 : 1.0 + i;
#pragma omp parallel for reduction(+ : bad)
    for (i = 0; i < N; i++) {
        y[i] = sqrt(x[i]);
        bad += y[i] != y[i];
    }
    if (bad)
        perror("sqrt");
    double s = 0;
    for (i = 0; i < N; i++)
        if (y[i] == y[i])
            s += y[i];
    printf("%.6f\n", s);
    return 0;
}

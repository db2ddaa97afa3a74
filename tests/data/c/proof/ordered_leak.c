/* The ordered region publishes a running value that the unordered part of later
 * iterations reads: which value an iteration sees depends on which iterations its
 * thread has seen finish, so on the schedule. */
#include <stdio.h>
#define N 4000
static double a[N], out[N];

int main(void)
{
    double run = 0.0;
    for (int i = 0; i < N; i++)
        a[i] = (i % 11) * 0.1;
#pragma omp parallel for ordered
    for (int i = 0; i < N; i++) {
        double v = a[i] * run;
#pragma omp ordered
        {
            run = run * 0.5 + a[i];
            out[i] = v;
        }
    }
    double s = 0.0;
    for (int i = 0; i < N; i++)
        s += out[i];
    printf("%.9f\n", s);
    return 0;
}

/* A helper that walks its pointer: out[i] and out[i + 1] are written by iteration i,
 * so neighbouring iterations write the same element. */
#include <stdio.h>
#define N 1000
static double out[N + 1];

static void spread(double *y, double v)
{
    *y += v;
    y++;
    *y += v;
}

int main(void)
{
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        spread(&out[i], i * 0.5);
    double s = 0.0;
    for (int i = 0; i <= N; i++)
        s += out[i] * (i % 3);
    printf("%.3f\n", s);
    return 0;
}

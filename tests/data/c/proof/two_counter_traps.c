/* Windows written by an inner loop that steps an offset beside its counter, as packing
   and halo codes do: each row's window of 8 starts 4 further on, so the windows of two
   rows overlap. */
#include <stdio.h>

#define N 1000

static double a[4 * N + 8];

int main(void)
{
    for (int i = 0; i < 4 * N + 8; i++)
        a[i] = i % 13;
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        for (int k = 4 * i, j = 0; j < 8; j++, k++)
            a[k] = a[k] * 0.5 + i;
    }
    double s = 0.0;
    for (int i = 0; i < 4 * N + 8; i++)
        s += a[i] * (i % 7);
    printf("%.6f\n", s);
    return 0;
}

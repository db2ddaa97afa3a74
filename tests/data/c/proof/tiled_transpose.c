/* A cache-blocked transpose and a blocked row update, tiles clipped at the edge by MIN
   as blocked codes and generated tilings write them; the edge tile of 1000 is short. */
#include <stdio.h>

#define N 1000
#define BS 64
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

static double a[N * N], b[N * N], r[N];

int main(void)
{
    for (int i = 0; i < N * N; i++)
        b[i] = (i % 17) * 0.5 - (i % 5);

#pragma omp parallel for
    for (int ii = 0; ii < N; ii += BS)
        for (int jj = 0; jj < N; jj += BS)
            for (int i = ii; i < MIN(ii + BS, N); i++)
                for (int j = jj; j < MIN(jj + BS, N); j++)
                    a[j * N + i] = b[i * N + j];

#pragma omp parallel for
    for (int ii = 0; ii < N; ii += BS)
        for (int i = MAX(ii, 1); i < MIN(ii + BS, N - 1); i++)
            r[i] = a[i * N + i - 1] + a[i * N + i + 1];

    double s = 0.0;
    for (int i = 0; i < N * N; i++)
        s += a[i] * (i % 7);
    for (int i = 0; i < N; i++)
        s += r[i];
    printf("%.3f\n", s);
    return 0;
}

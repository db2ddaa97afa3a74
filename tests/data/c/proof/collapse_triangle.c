/* A collapsed triangular nest: gcc rejects any schedule clause on it, so only the
 * thread count may vary. */
#include <stdio.h>
#define N 300
static double m[N][N];

int main(void)
{
#pragma omp parallel for collapse(2)
    for (int i = 0; i < N; i++)
        for (int j = 0; j < i; j++)
            m[i][j] = 0.5 * i + j;
    double s = 0.0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            s += m[i][j];
    printf("%.3f\n", s);
    return 0;
}

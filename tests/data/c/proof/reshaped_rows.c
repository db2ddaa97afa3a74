/* A kernel handed the same storage as rows of half the length, the way codes reuse a
   work array under another shape: b[i][j] is a[i / 2][(i % 2) * (M / 2) + j]. Rows i and
   2i both write the first half of a[i]; which values are left depends on which thread
   ran which row last. */
#include <stdio.h>
#define N 100
#define M 100
static double a[N][M];
static void kern(double (*b)[M / 2])
{
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M / 2; j++) {
            a[i][j] = i;
            b[i][j] = j;
        }
}
int main(void)
{
    kern((double (*)[M / 2]) a);
    double s = 0.0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            s = s * 0.999 + a[i][j];
    printf("%.17g\n", s);
    return 0;
}

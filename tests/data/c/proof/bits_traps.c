/* Shifts and masks that do not give each iteration its own elements. */
#include <stdio.h>

#define N 256

static double u[N][N], a[N];

int main(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            u[i][j] = ((i * 5 + j) % 9) * 0.1;

    /* the colour picks the first point, but the sweep then takes every point */
#pragma omp parallel for
    for (int i = 1; i < N - 1; i++)
        for (int j = 1 + (i & 1); j < N - 1; j++)
            u[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);

    /* two iterations per element: i >> 1 */
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        a[i >> 1] = 0.5 * a[i >> 1] + i;

    /* four slots for all iterations: i & 3 */
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        a[(i & 3) + 200] = 0.5 * a[(i & 3) + 200] + i;

    double s = 0.0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            s += u[i][j] * ((i + j) % 3 + 1);
    for (int i = 0; i < N; i++)
        s += a[i];
    printf("%.10e\n", s);
    return 0;
}

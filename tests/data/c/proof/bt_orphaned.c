/* NPB BT style: orphaned 'omp for nowait' loops writing different planes, in a
 * function called from the parallel region, ending at a barrier. */
#include <stdio.h>
#define N 24
static double rhs[N][N][N], u[N][N][N];

static void add_dissipation(void)
{
    int i, j, k;
    i = 1;
#pragma omp for nowait
    for (j = 1; j < N - 1; j++)
        for (k = 1; k < N - 1; k++)
            rhs[i][j][k] -= 0.25 * (5.0 * u[i][j][k] - 4.0 * u[i + 1][j][k] + u[i + 2][j][k]);
    i = 2;
#pragma omp for nowait
    for (j = 1; j < N - 1; j++)
        for (k = 1; k < N - 1; k++)
            rhs[i][j][k] -= 0.25 * (-4.0 * u[i - 1][j][k] + 6.0 * u[i][j][k] - 4.0 * u[i + 1][j][k]);
#pragma omp for
    for (j = 1; j < N - 1; j++)
        for (k = 1; k < N - 1; k++)
            rhs[N - 2][j][k] -= 0.25 * u[N - 2][j][k];
}

int main(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            for (int k = 0; k < N; k++)
                u[i][j][k] = ((i * 7 + j * 3 + k) % 10) * 0.1;
#pragma omp parallel
    {
        add_dissipation();
    }
    double s = 0.0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            for (int k = 0; k < N; k++)
                s += rhs[i][j][k] * (1 + (i + j) % 3);
    printf("%.8e\n", s);
    return 0;
}

/* A time-stepping solver: one parallel region per step holds a dominant
   relaxation sweep and a small boundary update (Jacobi-style proxy). The
   thread count is the region's, shared by both loops. */
#include <stdio.h>
#include <math.h>

#define N 600
#define STEPS 20
static double u[N][N], w[N][N];

int main(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            u[i][j] = (i == 0 || j == 0) ? 1.0 : 0.0;
    for (int t = 0; t < STEPS; t++) {
#pragma omp parallel
        {
#pragma omp for schedule(static)
            for (int i = 1; i < N - 1; i++)
                for (int j = 1; j < N - 1; j++)
                    w[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
#pragma omp for schedule(static)
            for (int i = 1; i < N - 1; i++) {
                w[i][0] = u[i][0];
                w[i][N - 1] = u[i][N - 1];
            }
        }
        for (int i = 1; i < N - 1; i++)
            for (int j = 0; j < N; j++)
                u[i][j] = w[i][j];
    }
    double s = 0.0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            s += u[i][j];
    printf("checksum %.8e\n", s);
    return 0;
}

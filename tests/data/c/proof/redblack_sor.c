/* Red-black successive over-relaxation: each colour's sweep updates the points of its
   colour from neighbours of the other colour, rows in parallel. */
#include <stdio.h>
#define N 400
static double u[N][N], f[N][N];
int main(void)
{
    const double omega = 1.5, h2 = 1.0 / ((N - 1) * (N - 1));
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            f[i][j] = ((i * 7 + j * 3) % 11) * 0.01;
    for (int it = 0; it < 30; it++) {
        for (int colour = 0; colour < 2; colour++) {
#pragma omp parallel for
            for (int i = 1; i < N - 1; i++)
                for (int j = 1 + ((i + colour) & 1); j < N - 1; j += 2)
                    u[i][j] += omega * 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] +
                                               u[i][j + 1] - h2 * f[i][j] - 4.0 * u[i][j]);
        }
    }
    double s = 0.0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            s += u[i][j] * ((i + j) % 3 + 1);
    printf("%.10e\n", s);
    return 0;
}

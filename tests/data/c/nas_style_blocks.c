/* NAS BT style: a 5x5 block per grid point, three blocks per point in one array, the
 * diagonal of the middle block set by the parallel loop (lhs[i][j][k][1][m][m]), and a
 * right-hand side read at the neighbours. Flattened, the subscripts move with five loop
 * variables at once; counted per dimension they are trivial. */
#include <stdio.h>
#ifndef N
#define N 12
#endif
static double lhs[N][N][N][3][5][5];
static double rhs[N][N][N][5];

int main(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            for (int k = 0; k < N; k++)
                for (int m = 0; m < 5; m++)
                    rhs[i][j][k][m] = (i + 2 * j + 3 * k + m) % 7;
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            for (int k = 1; k < N - 1; k++)
                for (int m = 0; m < 5; m++) {
                    lhs[i][j][k][1][m][m] = 1.0 + rhs[i][j][k - 1][m] + rhs[i][j][k + 1][m];
                    lhs[i][j][k][0][m][4 - m] = -rhs[i][j][k][m];
                }
    double s = 0.0;
    for (int i = 0; i < N; i++)
        for (int k = 0; k < N; k++)
            s += lhs[i][i % N][k][1][k % 5][k % 5] + lhs[i][0][k][0][1][3];
    printf("%.6f\n", s);
    return 0;
}

/* NPB MG style (psinv/resid): privates set in an inner loop before they are read,
 * in the same iteration. */
#include <stdio.h>
#define N 34
static double r[N][N][N], u[N][N][N];

static void psinv(int n1, int n2, int n3, const double c[4])
{
    int i3, i2, i1;
    double r1[N], r2[N];
#pragma omp parallel for private(i1, i2, r1, r2)
    for (i3 = 1; i3 < n3 - 1; i3++) {
        for (i2 = 1; i2 < n2 - 1; i2++) {
            for (i1 = 0; i1 < n1; i1++) {
                r1[i1] = r[i3][i2 - 1][i1] + r[i3][i2 + 1][i1] + r[i3 - 1][i2][i1]
                         + r[i3 + 1][i2][i1];
                r2[i1] = r[i3 - 1][i2 - 1][i1] + r[i3 - 1][i2 + 1][i1]
                         + r[i3 + 1][i2 - 1][i1] + r[i3 + 1][i2 + 1][i1];
            }
            for (i1 = 1; i1 < n1 - 1; i1++)
                u[i3][i2][i1] = u[i3][i2][i1] + c[0] * r[i3][i2][i1]
                                + c[1] * (r[i3][i2][i1 - 1] + r[i3][i2][i1 + 1] + r1[i1])
                                + c[2] * (r2[i1] + r1[i1 - 1] + r1[i1 + 1]);
        }
    }
}

int main(void)
{
    const double c[4] = {-3.0 / 8.0, 1.0 / 32.0, -1.0 / 64.0, 0.0};
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            for (int k = 0; k < N; k++)
                r[i][j][k] = ((i * 3 + j * 5 + k * 7) % 11) * 0.1;
    psinv(N, N, N, c);
    double s = 0.0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            for (int k = 0; k < N; k++)
                s += u[i][j][k] * ((i + j + k) % 3);
    printf("%.10e\n", s);
    return 0;
}

/* Region locals reused by every loop of a region, as NPB BT's initialize() and
   exact_rhs() write them: each loop sets xi, eta and j before it reads them, and
   xi = 1.0 between two loops sets it again for every thread. Independent. */
#include <stdio.h>
#define NX 40
#define NY 30
double u[NX][NY], f[NX][NY];
int main(void)
{
#pragma omp parallel
    {
        double xi, eta;
        int i, j;
#pragma omp for
        for (i = 0; i < NX; i++) {
            xi = i * 0.25;
            for (j = 0; j < NY; j++) {
                eta = j * 0.5;
                u[i][j] = xi * eta + 1.0;
            }
        }
        xi = 1.0;
#pragma omp for
        for (j = 0; j < NY; j++) {
            eta = j * 0.5;
            f[0][j] = xi + eta;
        }
#pragma omp for
        for (i = 1; i < NX; i++)
            for (j = 0; j < NY; j++)
                f[i][j] = u[i][j] - u[i - 1][j] + xi;
    }
    double s = 0.0;
    for (int i = 0; i < NX; i++)
        for (int j = 0; j < NY; j++)
            s += f[i][j] * (i + 1) + u[i][j];
    printf("%.6f\n", s);
    return 0;
}

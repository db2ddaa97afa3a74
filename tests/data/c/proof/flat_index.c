/* A 2-D update over one flattened iteration space, as proxy apps write it to get one
   long parallel loop: the cell's row and column come back by division and remainder. */
#include <stdio.h>

#define NX 240
#define NY 180

static double u[NX][NY], f[NX][NY];

int main(void)
{
    for (int i = 0; i < NX; i++)
        for (int j = 0; j < NY; j++)
            f[i][j] = 0.001 * (i * NY + j) - 0.5 * (i % 7);

#pragma omp parallel for
    for (int k = 0; k < NX * NY; k++) {
        int i = k / NY, j = k % NY;
        u[i][j] = 2.0 * f[i][j] + (j > 0 ? f[i][j - 1] : 0.0);
    }

    double s = 0.0;
    for (int i = 0; i < NX; i++)
        for (int j = 0; j < NY; j++)
            s += u[i][j] * ((i + j) % 5 + 1);
    printf("%.6f\n", s);
    return 0;
}

/* NAS LU's lower-triangular sweep (blts), as the OpenMP C version pipelines it: each
   plane k is one call, inside one parallel region; the first loop updates the plane
   from the one below, the second runs a wavefront over i whose rows wait on flags set
   by the row before (spin-waiting with flush), both 'nowait schedule(static)' so that
   a thread keeps the same rows from plane to plane. Another schedule would hand row i
   of plane k+1 to a thread before row i of plane k is done. */
#include <stdio.h>
#include <stdlib.h>

#define NX 48
#define NY 48
#define NZ 24

static double v[NX][NY][NZ];
static double ld[NX][NY];
static int flag[NX];

static void blts(int k, int ist, int iend, int jst, int jend, double omega)
{
    int i, j;
#pragma omp for nowait schedule(static)
    for (i = ist; i <= iend; i++)
        for (j = jst; j <= jend; j++)
            v[i][j][k] = v[i][j][k] - omega * ld[i][j] * v[i][j][k - 1];

#pragma omp for nowait schedule(static)
    for (i = ist; i <= iend; i++) {
        if (i != ist) {
            while (flag[i - 1] == 0) {
#pragma omp flush(flag)
                ;
            }
        }
        if (i != iend) {
            while (flag[i] == 1) {
#pragma omp flush(flag)
                ;
            }
        }
        for (j = jst; j <= jend; j++)
            v[i][j][k] = v[i][j][k] - omega * (ld[i][j] * v[i][j - 1][k] + ld[i][j] * v[i - 1][j][k]);
        if (i != ist)
            flag[i - 1] = 0;
        if (i != iend)
            flag[i] = 1;
#pragma omp flush(flag)
    }
}

int main(void)
{
    for (int i = 0; i < NX; i++)
        for (int j = 0; j < NY; j++) {
            ld[i][j] = 0.1 + 0.001 * ((i * 7 + j * 3) % 11);
            for (int k = 0; k < NZ; k++)
                v[i][j][k] = 1.0 + 0.01 * ((i + 2 * j + 3 * k) % 17);
        }
#pragma omp parallel
    {
        for (int i = 0; i < NX; i++)
            flag[i] = 0;
#pragma omp barrier
        for (int k = 1; k < NZ; k++)
            blts(k, 1, NX - 2, 1, NY - 2, 1.2);
    }
    double s = 0.0;
    for (int i = 0; i < NX; i++)
        for (int j = 0; j < NY; j++)
            for (int k = 0; k < NZ; k++)
                s += v[i][j][k] * ((i + j + k) % 5 + 1);
    printf("checksum %.12e\n", s);
    return 0;
}

/* Floyd-Warshall over a heap 2-D array handed to the kernel as *path (PolyBench's
   allocation style). Row k is written by iteration i = k when a diagonal is negative:
   which rows see the new values depends on which thread runs which i. */
#include <stdio.h>
#include <stdlib.h>
#define N 64
static void kernel_fw(int n, int path[N][N])
{
    int i, j, k;
    for (k = 0; k < n; k++) {
#pragma omp parallel for private(j)
        for (i = 0; i < n; i++)
            for (j = 0; j < n; j++)
                if (path[i][k] + path[k][j] < path[i][j])
                    path[i][j] = path[i][k] + path[k][j];
    }
}

int main(void)
{
    int (*path)[N][N] = (int (*)[N][N])malloc(sizeof(int) * N * N);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            (*path)[i][j] = (i * 7 + j * 13) % 17 - (i == j ? 3 : 0);
    kernel_fw(N, *path);
    long s = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            s += (*path)[i][j];
    printf("%ld\n", s);
    free(path);
    return 0;
}

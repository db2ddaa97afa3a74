/* Packing rows into a flat buffer with an offset stepped beside the column counter
   (for (k = 8 * i, j = 0; j < 8; j++, k++)), and a cursor declared before the inner
   loop and stepped with it: each row writes its own window of 8. */
#include <stdio.h>

#define N 1000

static double grid[N][8], packed[8 * N], halo[8 * N];

int main(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < 8; j++)
            grid[i][j] = (i * 8 + j) % 17;
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        for (int k = 8 * i, j = 0; j < 8; j++, k++)
            packed[k] = grid[i][j] * 2.0;
    }
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        int at = 8 * i;
        for (int j = 0; j < 8; j++, at++)
            halo[at] = grid[i][7 - j] + packed[at];
    }
    double s = 0.0;
    for (int i = 0; i < 8 * N; i++)
        s += (packed[i] + halo[i]) * (i % 5);
    printf("%.6f\n", s);
    return 0;
}

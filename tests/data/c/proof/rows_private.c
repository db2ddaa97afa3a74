/* As rows_local.c, but each thread copies the size into a variable declared inside the
 * parallel region: every thread has its own, no test before a loop can stand for all of
 * them, and the chain on rows 1 and m - 3 is kept as written. */
#include <stdio.h>
#include <stdlib.h>
#define MAXN 64
static double grid[MAXN][MAXN];

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 16;
    if (n < 4 || n > MAXN) {
        printf("size %d out of range\n", n);
        return 1;
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            grid[i][j] = (i * 3 + j) % 7;
#pragma omp parallel
    {
        int m = n;
#pragma omp for nowait
        for (int j = 0; j < n; j++)
            grid[1][j] = 0.5 * grid[1][j] + 1.0;
#pragma omp for nowait
        for (int j = 0; j < n; j++)
            grid[m - 3][j] = 0.25 * grid[m - 3][j] + 2.0;
    }
    double s = 0.0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            s += grid[i][j] * (1 + i % 5);
    printf("%.10e\n", s);
    return 0;
}

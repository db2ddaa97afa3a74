/* Rodinia style: the grid size is a local of main read from the command line, and one
 * parallel region updates the boundary rows 1 and n - 3 through 'omp for nowait' loops
 * over columns: distinct rows unless n == 4. */
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
#pragma omp for nowait
        for (int j = 0; j < n; j++)
            grid[1][j] = 0.5 * grid[1][j] + 1.0;
#pragma omp for nowait
        for (int j = 0; j < n; j++)
            grid[n - 3][j] = 0.25 * grid[n - 3][j] + 2.0;
    }
    double s = 0.0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            s += grid[i][j] * (1 + i % 5);
    printf("%.10e\n", s);
    return 0;
}

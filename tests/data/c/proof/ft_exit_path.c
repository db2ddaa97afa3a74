/* NPB FT style: a called function checks its arguments, prints and exits on an
 * error path that never runs; the loop itself is independent. */
#include <stdio.h>
#include <stdlib.h>
#define NX 64
#define NY 32
static double grid[NY][NX];

static void transform(int m, int n, double row[NX])
{
    if (m < 1 || n > NX) {
        printf("transform: bad arguments %d %d\n", m, n);
        exit(1);
    }
    for (int i = 0; i < n; i++)
        row[i] = row[i] * 0.5 + m;
}

int main(void)
{
    for (int j = 0; j < NY; j++)
        for (int i = 0; i < NX; i++)
            grid[j][i] = (i + j) % 9;
#pragma omp parallel for
    for (int j = 0; j < NY; j++)
        transform(3, NX, grid[j]);
    double s = 0.0;
    for (int j = 0; j < NY; j++)
        for (int i = 0; i < NX; i++)
            s += grid[j][i] * (j + 1);
    printf("%.3f\n", s);
    return 0;
}

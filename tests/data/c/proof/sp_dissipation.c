/* The fourth-order dissipation of a pentadiagonal factor, in the style of NPB SP's lhsx:
   an orphaned nowait chain writes planes 1 and 2, the interior planes, then planes
   n - 3 and n - 2 of lhs. The first and last loops touch a common plane only when
   n < 6: at n = 4 planes 1 and 2 meet (lhs[2..3][1]), at n = 5 plane 2 meets
   (lhs[1..3][2]). The grid size is read at run time: ./a.out N */
#include <stdio.h>
#include <stdlib.h>

#define MAXN 24

static double lhs[5][MAXN][MAXN];
static int grid_points[2];

static void dissipation(void)
{
    int i, j;
    i = 1;
#pragma omp for nowait
    for (j = 1; j <= grid_points[1] - 2; j++) {
        lhs[2][i][j] = lhs[2][i][j] + 5.0;
        lhs[3][i][j] = lhs[3][i][j] - 4.0;
        lhs[4][i][j] = lhs[4][i][j] + 1.0;
        lhs[1][i + 1][j] = lhs[1][i + 1][j] - 4.0;
        lhs[2][i + 1][j] = lhs[2][i + 1][j] + 6.0;
        lhs[3][i + 1][j] = lhs[3][i + 1][j] - 4.0;
    }
#pragma omp for nowait
    for (i = 3; i <= grid_points[0] - 4; i++) {
        for (j = 1; j <= grid_points[1] - 2; j++) {
            lhs[0][i][j] = lhs[0][i][j] + 1.0;
            lhs[2][i][j] = lhs[2][i][j] + 6.0;
        }
    }
    i = grid_points[0] - 3;
#pragma omp for
    for (j = 1; j <= grid_points[1] - 2; j++) {
        lhs[0][i][j] = lhs[0][i][j] * 0.5 + 1.0;
        lhs[1][i][j] = lhs[1][i][j] * 0.5 - 4.0;
        lhs[2][i][j] = lhs[2][i][j] * 0.5 + 6.0;
        lhs[3][i][j] = lhs[3][i][j] * 0.5 - 4.0;
        lhs[0][i + 1][j] = lhs[0][i + 1][j] + 1.0;
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 12;
    if (n < 4 || n > MAXN) {
        fprintf(stderr, "usage: %s N (4 <= N <= %d)\n", argv[0], MAXN);
        return 1;
    }
    grid_points[0] = grid_points[1] = n;
    for (int m = 0; m < 5; m++)
        for (int i = 0; i < MAXN; i++)
            for (int j = 0; j < MAXN; j++)
                lhs[m][i][j] = m + 0.25 * i - 0.125 * j;
#pragma omp parallel
    dissipation();
    double s = 0.0;
    for (int m = 0; m < 5; m++)
        for (int i = 0; i < MAXN; i++)
            for (int j = 0; j < MAXN; j++)
                s += lhs[m][i][j] * (m + 1) * (i + 2) * (j + 3);
    printf("%.6f\n", s);
    return 0;
}

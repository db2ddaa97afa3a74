/* Flattened indices that do not give each iteration its own element. */
#include <stdio.h>

#define N 300

static double a[N][4], b[N][8];

int main(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < 8; j++)
            b[i][j] = i + 0.5 * j;

    /* k % 8 in a row of 4: the upper half of each row is the next row's start */
#pragma omp parallel for
    for (int k = 0; k < (N / 2) * 8; k++)
        a[k / 8][k % 8] = 0.5 * a[k / 8][k % 8] + b[k / 8][k % 8];

    /* two iterations per row: k / 2 */
#pragma omp parallel for
    for (int k = 0; k < 2 * N; k++)
        b[k / 2][0] = b[k / 2][0] * 0.5 + k;

    /* odd k: C's division truncates toward zero, so -1 / 2 and 1 / 2 are both 0 (a
       floor would give -1 and 0, every k its own element) */
#pragma omp parallel for
    for (int k = -9; k < 10; k += 2)
        a[k / 2 + 5][1] = a[k / 2 + 5][1] * 0.5 + k;

    double s = 0.0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < 4; j++)
            s += a[i][j] * (j + 1);
    for (int i = 0; i < N; i++)
        s += b[i][0];
    printf("%.6f\n", s);
    return 0;
}

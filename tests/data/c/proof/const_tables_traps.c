/* Tables that do send two iterations to one element: a constant table with a repeated
 * entry (two bands into one slot), and a permutation table the program rewrites before
 * the loop (not const: its entries are whatever the program stored). */
#include <stdio.h>

#define BANDS 8
#define LEN 3000

static const int folded[BANDS] = {0, 4, 2, 6, 1, 5, 3, 4};
static int chosen[BANDS] = {0, 1, 2, 3, 4, 5, 6, 7};
static double spec[LEN][BANDS], slot[LEN][BANDS];

int main(int argc, char **argv)
{
    for (int i = 0; i < LEN; i++)
        for (int b = 0; b < BANDS; b++)
            spec[i][b] = (i % 17) * 0.5 + b;
    chosen[argc % BANDS] = 2;
#pragma omp parallel for
    for (int b = 0; b < BANDS; b++)
        for (int i = 0; i < LEN; i++)
            slot[i][folded[b]] = spec[i][b] * (b + 1);
#pragma omp parallel for
    for (int b = 0; b < BANDS; b++)
        for (int i = 0; i < LEN; i++)
            slot[i][chosen[b]] += spec[i][b];
    double t = 0.0;
    for (int i = 0; i < LEN; i++)
        for (int b = 0; b < BANDS; b++)
            t += slot[i][b] * (b + 1) * (i % 3);
    printf("%.3f\n", t);
    return 0;
}

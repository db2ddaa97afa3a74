/* Scatters through constant tables of distinct indices, as image and spectral codes
 * write them: pixels' channels reordered by a constant permutation (RGBA to BGRA-like),
 * and each of eight bands written into the slot a bit-reversal table names. The tables
 * are const and their entries distinct: every iteration writes its own elements. */
#include <stdio.h>

#define PIXELS 40000
#define BANDS 8
#define LEN 3000

static const int order[4] = {2, 1, 0, 3};
static const int bitrev[BANDS] = {0, 4, 2, 6, 1, 5, 3, 7};
static unsigned char in[PIXELS * 4], out[PIXELS * 4];
static double spec[LEN][BANDS], shuffled[LEN][BANDS];

int main(void)
{
    for (int p = 0; p < PIXELS * 4; p++)
        in[p] = (unsigned char)((p * 37) % 251);
    for (int i = 0; i < LEN; i++)
        for (int b = 0; b < BANDS; b++)
            spec[i][b] = (i % 17) * 0.5 + b;
#pragma omp parallel for
    for (int p = 0; p < PIXELS; p++)
        for (int c = 0; c < 4; c++)
            out[p * 4 + order[c]] = in[p * 4 + c];
#pragma omp parallel for
    for (int b = 0; b < BANDS; b++)
        for (int i = 0; i < LEN; i++)
            shuffled[i][bitrev[b]] = spec[i][b] * (b + 1);
    long s = 0;
    double t = 0.0;
    for (int p = 0; p < PIXELS * 4; p++)
        s += out[p] * (p % 7);
    for (int i = 0; i < LEN; i++)
        for (int b = 0; b < BANDS; b++)
            t += shuffled[i][b] * (b + 1) * (i % 3);
    printf("%ld %.3f\n", s, t);
    return 0;
}

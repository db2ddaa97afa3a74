/* The C library's sorts as real codes call them in a loop: a 3x3 median filter sorting
   each pixel's window, each row of a neighbour table sorted in place, and keys looked
   up in a sorted table with bsearch. */
#include <stdio.h>
#include <stdlib.h>

#define H 120
#define W 120
#define K 8

static double img[H][W], out[H][W];
static int nbr[H][K], keys[H], table[W], found[H];

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int cmp_int(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

int main(void)
{
    int i, j;
    for (i = 0; i < H; i++) {
        for (j = 0; j < W; j++)
            img[i][j] = ((i * 37 + j * 11) % 101) * 0.5;
        for (j = 0; j < K; j++)
            nbr[i][j] = (i * 7 + j * 13) % 97;
        keys[i] = (i * 5) % 200;
    }
    for (j = 0; j < W; j++)
        table[j] = 2 * j;
#pragma omp parallel for private(j)
    for (i = 1; i < H - 1; i++)
        for (j = 1; j < W - 1; j++) {
            double win[9];
            int k = 0;
            for (int di = -1; di <= 1; di++)
                for (int dj = -1; dj <= 1; dj++)
                    win[k++] = img[i + di][j + dj];
            qsort(win, 9, sizeof win[0], cmp_double);
            out[i][j] = win[4];
        }
#pragma omp parallel for
    for (i = 0; i < H; i++)
        qsort(nbr[i], K, sizeof nbr[i][0], cmp_int);
#pragma omp parallel for
    for (i = 0; i < H; i++) {
        int *hit = bsearch(&keys[i], table, W, sizeof table[0], cmp_int);
        found[i] = hit != NULL;
    }
    double s = 0;
    long h = 0;
    for (i = 0; i < H; i++) {
        for (j = 0; j < W; j++)
            s += out[i][j] * (i % 3 + 1);
        for (j = 0; j < K; j++)
            h = h * 3 + nbr[i][j];
        h += found[i];
    }
    printf("%.6f %ld\n", s, h);
    return 0;
}

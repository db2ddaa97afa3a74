/* A sweep whose fill length comes through a pointer that is only valid in one mode: with
   ./a.out 1 the rows are first copied (fill_p[0] entries), with ./a.out 0 there is no
   fill array and fill_p is NULL. A test of fill_p[0] at the loop would read through NULL
   where the loop as written never does. */
#include <stdio.h>
#include <stdlib.h>

#define ROWS 96
#define MAXN 128

static double table[ROWS][MAXN];
static double out[ROWS];

static void sweep(const int *fill_p, int mode, int n)
{
#pragma omp parallel
    {
        double w[MAXN];
        for (int i = 0; i < MAXN; i++)
            w[i] = 0.0;
#pragma omp for
        for (int r = 0; r < ROWS; r++) {
            if (mode) {
                for (int i = 0; i < fill_p[0]; i++)
                    w[i] = table[r][i];
            }
            double s = 0.0;
            for (int i = 0; i < n; i++) {
                w[i] = 0.5 * w[i] + 0.25 * r;
                s += w[i] * (i + 1);
            }
            out[r] += s;
        }
    }
}

int main(int argc, char **argv)
{
    int mode = argc > 1 ? atoi(argv[1]) : 1;
    int fill = 64;
    for (int r = 0; r < ROWS; r++)
        for (int i = 0; i < MAXN; i++)
            table[r][i] = (double)((r * 7 + i * 3) % 11);
    sweep(mode ? &fill : NULL, mode, 64);
    double total = 0.0;
    for (int r = 0; r < ROWS; r++)
        total += out[r] * (r % 5 + 1);
    printf("mode=%d total %.6f\n", mode, total);
    return 0;
}

/* A smoothing sweep over the rows of a table, each thread keeping a scratch row: the
   first FILL entries are copied from the row, then all N are relaxed in place. Every
   entry the relaxation reads was written by the same row only when FILL >= N; with
   FILL < N the entries past FILL carry over from the row the thread ran before, so
   the result depends on the schedule. ./a.out FILL N [twice] */
#include <stdio.h>
#include <stdlib.h>

#define ROWS 96
#define MAXN 128

static double table[ROWS][MAXN];
static double out[ROWS];

static void sweep(int fill, int n) {
#pragma omp parallel
    {
        double w[MAXN];
        for (int i = 0; i < MAXN; i++)
            w[i] = 0.0;
#pragma omp for
        for (int r = 0; r < ROWS; r++) {
            for (int i = 0; i < fill; i++)
                w[i] = table[r][i];
            double s = 0.0;
            for (int i = 0; i < n; i++) {
                w[i] = 0.5 * w[i] + 0.25 * r;
                s += w[i] * (i + 1);
            }
            out[r] += s;
        }
    }
}

int main(int argc, char **argv) {
    int fill = argc > 1 ? atoi(argv[1]) : 64;
    int n = argc > 2 ? atoi(argv[2]) : 64;
    int twice = argc > 3;
    if (fill < 0 || fill > MAXN || n < 0 || n > MAXN) {
        fprintf(stderr, "usage: %s FILL N [twice] (at most %d)\n", argv[0], MAXN);
        return 1;
    }
    for (int r = 0; r < ROWS; r++)
        for (int i = 0; i < MAXN; i++)
            table[r][i] = (double)((r * 7 + i * 3) % 11);
    sweep(fill, n);
    if (twice)
        sweep(fill / 2, n / 2);
    double total = 0.0;
    for (int r = 0; r < ROWS; r++)
        total += out[r] * (r % 5 + 1);
    printf("fill=%d n=%d total %.6f\n", fill, n, total);
    return 0;
}

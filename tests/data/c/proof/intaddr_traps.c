/* Arrays reached through addresses held as numbers (hand alignment, a saved address):
   each loop's pointer may be the array it writes, so every loop is a trap. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define N 4096
#define LINE 64

double grid[N + 8] __attribute__((aligned(LINE))); /* rounding up keeps it */
double field[N + 8];
double level[N + 8];
double *work;

static void relax(double *src, int n)
{
    int i;
#pragma omp parallel for
    for (i = 0; i < n; i++)
        level[i] = src[i + 1] * 0.5 + 1.0;
}

int main(int argc, char **argv)
{
    int i;
    double *in = malloc((N + 8) * sizeof(double));
    double *from = malloc((N + 8) * sizeof(double));
    uintptr_t saved = (uintptr_t)field;
    if (argc < 3)
        in = (double *)(((uintptr_t)grid + LINE - 1) & ~(uintptr_t)(LINE - 1));
    if (argc < 4)
        from = (double *)saved;
    work = argc < 5 ? (double *)((uintptr_t)level | 0) : malloc((N + 8) * sizeof(double));
    for (i = 0; i < N + 8; i++) {
        grid[i] = i % 7;
        field[i] = i % 5;
        level[i] = i % 3;
        in[i] = grid[i];
        from[i] = field[i];
    }
    /* in may be grid, rounded up to a line: grid[i] reads what in[i - 1] wrote */
#pragma omp parallel for
    for (i = 1; i < N; i++)
        in[i] = grid[i + 1] * 0.5 + 1.0;
    /* from may be field, through the saved number */
#pragma omp parallel for
    for (i = 0; i < N; i++)
        field[i] = from[i + 1] * 0.25 + 2.0;
    relax(work, N);
    double s = 0.0;
    for (i = 0; i < N; i++)
        s += (grid[i] + 2.0 * field[i] + 3.0 * level[i] + in[i]) * (i % 5 + 1);
    printf("checksum %.6f\n", s);
    return 0;
}

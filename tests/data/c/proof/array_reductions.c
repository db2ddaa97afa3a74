/* Array reductions (OpenMP 4.5) as real codes write them: a histogram of keys, a
   co-occurrence matrix of neighbouring labels, and per-cell particle counts through a
   pointer section, each thread summing into its own copy. */
#include <stdio.h>
#include <stdlib.h>

#define N 200000
#define B 32
#define CELLS 64

static int key[N], label[N];

static void count_cells(const int *cell, int n, long *per_cell)
{
    int i;
#pragma omp parallel for reduction(+ : per_cell[:CELLS])
    for (i = 0; i < n; i++)
        per_cell[cell[i]] += 1 + (cell[i] & 1);
}

int main(void)
{
    long hist[B] = {0};
    long cooc[B][B] = {{0}};
    long *per_cell = calloc(CELLS, sizeof *per_cell);
    int i;
    for (i = 0; i < N; i++) {
        key[i] = (int)((i * 2654435761u) % B);
        label[i] = (int)((i * 40503u) % CELLS);
    }
#pragma omp parallel for reduction(+ : hist[:B])
    for (i = 0; i < N; i++)
        hist[key[i]]++;
#pragma omp parallel for reduction(+ : cooc[:B][:B])
    for (i = 1; i < N; i++)
        cooc[key[i - 1]][key[i]] += 1;
    count_cells(label, N, per_cell);
    long h = 0;
    for (i = 0; i < B; i++)
        h = h * 7 + hist[i] + cooc[i][(i * 5) % B];
    for (i = 0; i < CELLS; i++)
        h = h * 3 + per_cell[i];
    printf("%ld\n", h);
    free(per_cell);
    return 0;
}

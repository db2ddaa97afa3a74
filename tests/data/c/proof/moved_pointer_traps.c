/* A solver whose loops switch the grid they read from part-way through: one iteration
 * (or a helper it calls) stores another pointer where the others read theirs, directly,
 * in a struct's member, through a struct pointer, or by copying the whole struct. What
 * each later iteration reads depends on whether the switch ran before it: every loop is
 * a trap. */
#include <stdio.h>

#define N 4096

struct grid {
    double *cells;
    int n;
};

static double *current;
static struct grid level;
static struct grid *active;
static struct grid coarse;
static double fine[N + 1], spare[N + 1];
static double res[N];

static void checkpoint(int i)
{
    if (i == N / 2)
        current = spare;
}

static void regrid(int i)
{
    if (i == N / 2)
        active->cells = spare;
}

int main(void)
{
    int i;
    struct grid mine = {fine, N};
    current = fine;
    level.cells = fine;
    coarse.cells = spare;
    active = &mine;
    for (i = 0; i <= N; i++) {
        fine[i] = i % 7;
        spare[i] = i % 3;
    }
#pragma omp parallel for
    for (i = 0; i < N; i++) {
        res[i] += current[i + 1];
        if (i == N / 2)
            current = spare;
    }
#pragma omp parallel for
    for (i = 0; i < N; i++) {
        res[i] += 2.0 * current[i + 1];
        checkpoint(i);
    }
#pragma omp parallel for
    for (i = 0; i < N; i++) {
        res[i] += level.cells[i + 1];
        if (i == N / 2)
            level.cells = spare;
    }
#pragma omp parallel for
    for (i = 0; i < N; i++) {
        res[i] += active->cells[i + 1];
        regrid(i);
    }
#pragma omp parallel for
    for (i = 0; i < N; i++) {
        res[i] += 0.5 * level.cells[i];
        if (i == N / 2)
            level = coarse;
    }
    double s = 0.0;
    for (i = 0; i < N; i++)
        s += res[i] * (i % 5 + 1);
    printf("checksum %.6f\n", s);
    return 0;
}

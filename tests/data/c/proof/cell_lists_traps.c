/* Link-cell kernels whose counts a scan at the directive would not see as the
   iterations do: counts stored through another name for the same array, a count set
   before it is read, counts read every other box, after a test that skips some boxes,
   after a call that may end the program, and counts a loop before it in the same
   region fills with nowait. Each box's slab is MAXATOMS slots. */
#include <stdio.h>
#include <stdlib.h>

#define MAXATOMS 8

static int check_box(const int *cnt, int b)
{
    if (cnt[b] < 0)
        abort();
    return b;
}

static void regrow(int *cnt, int *alias, double *x, int nb)
{
#pragma omp parallel for
    for (int b = 0; b < nb - 1; b++) {
        int n = cnt[b];
        for (int k = 0; k < n; k++)
            x[b * MAXATOMS + k] += 1.0;
        alias[b + 1] = (n + 3) % MAXATOMS;
    }
}

static void refill(int *cnt, double *x, int nb)
{
#pragma omp parallel for
    for (int b = 0; b < nb; b++) {
        cnt[b] = 2 * MAXATOMS;
        const int n = cnt[b];
        for (int k = 0; k < n; k++)
            x[b * MAXATOMS + k] = x[b * MAXATOMS + k] * 0.5 + b;
    }
}

static void every_other(const int *cnt, double *x, int nb)
{
#pragma omp parallel for
    for (int b = 0; b < nb; b += 2) {
        for (int k = 0; k < cnt[b]; k++)
            x[b * MAXATOMS + k] = x[b * MAXATOMS + k] * 0.5 + b;
    }
}

static void skip_empty(const int *cnt, const int *live, double *x, int nb)
{
#pragma omp parallel for
    for (int b = 0; b < nb; b++) {
        if (!live[b])
            continue;
        int n = cnt[b];
        for (int k = 0; k < n; k++)
            x[b * MAXATOMS + k] = x[b * MAXATOMS + k] * 0.5 + b;
    }
}

static void checked(const int *cnt, double *x, int nb)
{
#pragma omp parallel for
    for (int b = 0; b < nb; b++) {
        check_box(cnt, b);
        int n = cnt[b];
        for (int k = 0; k < n; k++)
            x[b * MAXATOMS + k] = x[b * MAXATOMS + k] * 0.5 + b;
    }
}

static void count_then_scale(int *cnt, double *x, int nb, int fill)
{
#pragma omp parallel
    {
#pragma omp for nowait schedule(static)
        for (int b = 0; b < nb; b++)
            cnt[b] = (b * 5) % fill;
#pragma omp for schedule(static)
        for (int b = 0; b < nb; b++) {
            int n = cnt[b];
            for (int k = 0; k < n; k++)
                x[b * MAXATOMS + k] = x[b * MAXATOMS + k] * 0.5 + b;
        }
    }
}

int main(int argc, char **argv)
{
    int nb = argc > 1 ? atoi(argv[1]) : 300;
    int fill = argc > 2 ? atoi(argv[2]) : MAXATOMS;
    if (nb < 2 || fill < 1 || fill > 2 * MAXATOMS)
        return 1;
    size_t slots = (size_t)(nb + 3) * MAXATOMS;
    int *cnt = malloc(nb * sizeof *cnt), *live = malloc(nb * sizeof *live);
    double *x = malloc(slots * sizeof *x);
    if (!cnt || !live || !x)
        return 1;
    for (int b = 0; b < nb; b++) {
        cnt[b] = (b * 3) % fill;
        live[b] = b % 3 != 0;
    }
    for (size_t i = 0; i < slots; i++)
        x[i] = (double)(i % 9);
    every_other(cnt, x, nb);
    skip_empty(cnt, live, x, nb);
    checked(cnt, x, nb);
    count_then_scale(cnt, x, nb, fill);
    regrow(cnt, cnt, x, nb);
    refill(cnt, x, nb - 2);
    double t = 0.0;
    for (size_t i = 0; i < slots; i++)
        t += x[i] * (i % 7 + 1);
    printf("%.6f\n", t);
    free(cnt);
    free(live);
    free(x);
    return 0;
}

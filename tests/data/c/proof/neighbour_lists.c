/* Neighbour lists as molecular-dynamics codes build them: each atom's list is a row of
 * maxneighs slots, filled by a counter that only moves up and is tested against the row
 * length before each store. Rows of one flat block, reached through a struct of
 * pointers, through a plain parameter, by a while loop, and two slots at a time. */
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    int maxneighs;
    int *numneigh;
    int *neighbors;
    double cutsq;
} Neighbor;

static double dist2(const double *x, int i, int j)
{
    double dx = x[3 * i] - x[3 * j], dy = x[3 * i + 1] - x[3 * j + 1];
    double dz = x[3 * i + 2] - x[3 * j + 2];
    return dx * dx + dy * dy + dz * dz;
}

static void build_struct(Neighbor *nb, const double *x, int n)
{
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n; i++) {
        int *neighs = &nb->neighbors[i * nb->maxneighs];
        int cnt = 0;
        for (int j = 0; j < n; j++)
            if (j != i && dist2(x, i, j) < nb->cutsq && cnt < nb->maxneighs)
                neighs[cnt++] = j;
        nb->numneigh[i] = cnt;
    }
}

static void build_flat(int *list, int *count, int maxn, const double *x, int n, double cutsq)
{
#pragma omp parallel for
    for (int i = 0; i < n; i++) {
        int cnt = 0;
        for (int j = 0; j < n; j++) {
            if (j == i || dist2(x, i, j) >= cutsq)
                continue;
            if (cnt < maxn)
                list[i * maxn + cnt++] = j;
        }
        count[i] = cnt;
    }
}

static void build_while(int *list, int *count, int maxn, const double *x, int n, double cutsq)
{
#pragma omp parallel for
    for (int i = 0; i < n; i++) {
        long cnt = 0;
        int j = 0;
        while (j < n) {
            if (j != i && dist2(x, i, j) < cutsq && cnt < maxn) {
                list[i * maxn + cnt] = j;
                cnt++;
            }
            j++;
        }
        count[i] = (int)cnt;
    }
}

static void build_pairs(int *pairs, int *count, int maxn, const double *x, int n, double cutsq)
{
#pragma omp parallel for
    for (int i = 0; i < n; i++) {
        int cnt = 0;
        for (int j = i + 1; j < n; j++)
            if (dist2(x, i, j) < cutsq && cnt + 1 < maxn) {
                pairs[i * maxn + cnt] = i;
                pairs[i * maxn + cnt + 1] = j;
                cnt += 2;
            }
        count[i] = cnt;
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 400;
    int maxn = argc > 2 ? atoi(argv[2]) : 24;
    double *x = malloc(3 * n * sizeof *x);
    for (int i = 0; i < 3 * n; i++)
        x[i] = (i * 7919 % 1000) * 0.01;
    Neighbor nb = {maxn, malloc(n * sizeof(int)), malloc((size_t)n * maxn * sizeof(int)), 4.0};
    int *list = malloc((size_t)n * maxn * sizeof(int)), *count = malloc(n * sizeof(int));
    long sum = 0;
    build_struct(&nb, x, n);
    for (int i = 0; i < n; i++)
        for (int k = 0; k < nb.numneigh[i]; k++)
            sum += (long)nb.neighbors[i * maxn + k] * (k + 1);
    build_flat(list, count, maxn, x, n, 9.0);
    for (int i = 0; i < n; i++)
        for (int k = 0; k < count[i]; k++)
            sum += (long)list[i * maxn + k] * (k + 3);
    build_while(list, count, maxn, x, n, 2.0);
    for (int i = 0; i < n; i++)
        for (int k = 0; k < count[i]; k++)
            sum += (long)list[i * maxn + k] * (k + 5);
    build_pairs(list, count, maxn, x, n, 6.0);
    for (int i = 0; i < n; i++)
        for (int k = 0; k < count[i]; k++)
            sum += (long)list[i * maxn + k] * (k + 7);
    printf("%ld\n", sum);
    return 0;
}

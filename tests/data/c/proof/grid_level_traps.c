/* Levels of a grid hierarchy (double ****u, as NAS MG keeps them) passed to one call
 * where they may be one level, or share rows: the same level twice (j = k), a level
 * moved after it was set (j++), a global level a helper moves between the set and the
 * call, a hierarchy whose coarse level reuses a row of the fine one, and a level read
 * through a global pointer to the hierarchy while written through a parameter, and a call
 * a goto reaches again after the level it passes moved. */
#include <stdio.h>
#include <stdlib.h>

#define LT 4
#define N 10

static int lev;
static double ****hier;  /* the hierarchy, also reached by name */

static void next_level(void)
{
    lev = lev + 1;
}

static double ****levels(int share)
{
    double ****g = (double ****)malloc((LT + 1) * sizeof(double ***));
    for (int l = LT; l >= 1; l--) {
        g[l] = (double ***)malloc(N * sizeof(double **));
        for (int k = 0; k < N; k++) {
            g[l][k] = (double **)malloc(N * sizeof(double *));
            for (int j = 0; j < N; j++)
                g[l][k][j] = (double *)calloc(N, sizeof(double));
        }
    }
    return g;
}

static double ****shared_rows(void)
{
    double ****g = levels(0);
    for (int k = 0; k < N; k++)
        g[1][k] = g[2][k];  /* the coarse level's rows are the fine level's */
    return g;
}

static void smooth(double ***z, double ***u)
{
#pragma omp parallel for
    for (int i3 = 1; i3 < N - 1; i3++)
        for (int i2 = 1; i2 < N - 1; i2++)
            for (int i1 = 1; i1 < N - 1; i1++)
                u[i3][i2][i1] = 0.5 * (z[i3 - 1][i2][i1] + z[i3 + 1][i2][i1]) + 1.0;
}

static void blend(double ***z, double ***u)
{
#pragma omp parallel for
    for (int i3 = 1; i3 < N - 1; i3++)
        for (int i2 = 1; i2 < N - 1; i2++)
            for (int i1 = 1; i1 < N - 1; i1++)
                u[i3][i2][i1] = 0.5 * (z[i3 - 1][i2 - 1][i1] + z[i3 + 1][i2 + 1][i1]) + 1.0;
}

static void mix(double ***z, double ***u)
{
#pragma omp parallel for
    for (int i3 = 1; i3 < N - 1; i3++)
        for (int i2 = 1; i2 < N - 1; i2++)
            for (int i1 = 1; i1 < N - 1; i1++)
                u[i3][i2][i1] = 0.5 * (z[i3 - 1][i2][i1 - 1] + z[i3 + 1][i2][i1 + 1]) + 1.0;
}

static void spread(double ***z, double ***u)
{
#pragma omp parallel for
    for (int i3 = 1; i3 < N - 1; i3++)
        for (int i2 = 1; i2 < N - 1; i2++)
            for (int i1 = 1; i1 < N - 1; i1++)
                u[i3][i2][i1] = 0.25 * (z[i3 - 1][i2][i1] + z[i3][i2 + 1][i1]) + 2.0;
}

static void pull(double ***z, double ***u)
{
#pragma omp parallel for
    for (int i3 = 1; i3 < N - 1; i3++)
        for (int i2 = 1; i2 < N - 1; i2++)
            for (int i1 = 1; i1 < N - 1; i1++)
                u[i3][i2][i1] = z[i3][i2][i1] + 0.5 * hier[2][i3 + 1][i2][i1];
}

static void settle(double ***z, double ***u)
{
#pragma omp parallel for
    for (int i3 = 1; i3 < N - 1; i3++)
        for (int i2 = 1; i2 < N - 1; i2++)
            for (int i1 = 1; i1 < N - 1; i1++)
                u[i3][i2][i1] = 0.75 * z[i3 + 1][i2][i1] + 0.25 * z[i3 - 1][i2][i1];
}

int main(void)
{
    double ****u = levels(0), ****w = shared_rows();
    int j, k;
    for (k = 2; k <= LT; k++) {
        j = k;
        smooth(u[j], u[k]);  /* one level twice */
    }
    for (k = 2; k <= LT; k++) {
        j = k - 1;
        j++;
        blend(u[j], u[k]);  /* j moved back onto k */
    }
    lev = 1;
    j = lev + 1;
    next_level();
    mix(u[j], u[lev]);  /* lev moved by the helper onto j */
    k = 2;
    j = k - 1;
    spread(w[j], w[k]);  /* levels 1 and 2 share their rows */
    hier = u;
    pull(u[j], u[k]);  /* level 2 read through the global while written as u */
    k = 3;
    j = k - 1;
again:
    settle(u[j], u[k]);  /* levels 2 and 3, then level 2 twice */
    k--;
    if (k >= 2)
        goto again;
    double s = 0;
    for (int l = 1; l <= LT; l++)
        for (int i = 0; i < N; i++)
            s += u[l][i][i][i] * (i + 1) + w[l][i][2][i] * (l + i);
    printf("%.6f\n", s);
    return 0;
}

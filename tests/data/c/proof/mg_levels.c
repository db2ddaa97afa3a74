/* A multigrid V-cycle in NAS MG's style: the levels of a grid hierarchy kept as
 * double ****u, each level and each of its rows a new allocation; restriction and
 * interpolation between level k and level j = k - 1 passed as two pointers. */
#include <stdio.h>
#include <stdlib.h>

#define LT 4

static int m[LT + 1];

static double ****alloc_levels(void)
{
    double ****g = (double ****)malloc((LT + 1) * sizeof(double ***));
    for (int l = LT; l >= 1; l--) {
        g[l] = (double ***)malloc(m[l] * sizeof(double **));
        for (int k = 0; k < m[l]; k++) {
            g[l][k] = (double **)malloc(m[l] * sizeof(double *));
            for (int j = 0; j < m[l]; j++)
                g[l][k][j] = (double *)malloc(m[l] * sizeof(double));
        }
    }
    return g;
}

static void restrict3(double ***r, int mk, double ***s, int mj)
{
#pragma omp parallel for
    for (int j3 = 1; j3 < mj - 1; j3++)
        for (int j2 = 1; j2 < mj - 1; j2++)
            for (int j1 = 1; j1 < mj - 1; j1++) {
                int i3 = 2 * j3 - 1, i2 = 2 * j2 - 1, i1 = 2 * j1 - 1;
                s[j3][j2][j1] = 0.5 * r[i3][i2][i1]
                    + 0.125 * (r[i3 + 1][i2][i1] + r[i3][i2 + 1][i1] + r[i3][i2][i1 + 1]);
            }
}

static void prolong(double ***z, int mm, double ***u, int n)
{
#pragma omp parallel for
    for (int i3 = 0; i3 < mm - 1; i3++)
        for (int i2 = 0; i2 < mm - 1; i2++)
            for (int i1 = 0; i1 < mm - 1; i1++) {
                u[2 * i3][2 * i2][2 * i1] += z[i3][i2][i1];
                u[2 * i3 + 1][2 * i2][2 * i1] += 0.5 * (z[i3][i2][i1] + z[i3 + 1][i2][i1]);
            }
}

static void fill(double ***z, int n, double v)
{
#pragma omp parallel for
    for (int i3 = 0; i3 < n; i3++)
        for (int i2 = 0; i2 < n; i2++)
            for (int i1 = 0; i1 < n; i1++)
                z[i3][i2][i1] = v * (i3 + 2 * i2 + 3 * i1);
}

static void vcycle(double ****u, double ****r)
{
    int j, k;
    for (k = LT; k >= 2; k--) {
        j = k - 1;
        restrict3(r[k], m[k], r[j], m[j]);
    }
    for (k = 2; k <= LT; k++) {
        j = k - 1;
        fill(u[k], m[k], 0.0);
        prolong(u[j], m[j], u[k], m[k]);
    }
}

int main(void)
{
    int top = LT;
    FILE *fp = fopen("mg.input", "r");  /* as NAS MG reads its sizes, when it is there */
    if (fp != NULL) {
        if (fscanf(fp, "%d", &top) != 1 || top < 2 || top > LT)
            top = LT;
        fclose(fp);
    }
    for (int l = 1; l <= LT; l++)
        m[l] = (2 << l) + 2;
    double ****u = alloc_levels(), ****r = alloc_levels();
    for (int l = 1; l <= LT; l++) {
        fill(u[l], m[l], 1.0 / l);
        fill(r[l], m[l], 0.5 * l);
    }
    vcycle(u, r);
    double s = 0;
    for (int l = 1; l <= LT; l++)
        for (int i = 0; i < m[l]; i++)
            s += u[l][i][i][i] * (i + 1) + r[l][i][1][i];
    printf("%d levels: %.6f\n", top, s);
    return 0;
}

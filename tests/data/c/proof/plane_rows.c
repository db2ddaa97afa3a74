/* A 3-D grid allocated plane by plane and row by row (double ***, as NPB MG's C
   version keeps its levels), smoothed by planes in parallel: every row is its own
   allocation, so planes never overlap. The periodic copy of the grid saves memory by
   pointing its ghost planes at the interior planes they mirror (g[0] = g[n - 2],
   g[n - 1] = g[1]): a loop over all planes then writes the mirrored planes twice,
   from two iterations (a race, run only when asked: a second argument). */
#include <stdio.h>
#include <stdlib.h>

static double ***grid(int n3, int n2, int n1)
{
    double ***g = malloc(n3 * sizeof(double **));
    for (int k = 0; k < n3; k++) {
        g[k] = malloc(n2 * sizeof(double *));
        for (int j = 0; j < n2; j++)
            g[k][j] = malloc(n1 * sizeof(double));
    }
    return g;
}

static double ***periodic(int n3, int n2, int n1)
{
    double ***g = malloc(n3 * sizeof(double **));
    for (int k = 1; k < n3 - 1; k++) {
        g[k] = malloc(n2 * sizeof(double *));
        for (int j = 0; j < n2; j++)
            g[k][j] = malloc(n1 * sizeof(double));
    }
    g[0] = g[n3 - 2];
    g[n3 - 1] = g[1];
    return g;
}

static void smooth(double ***out, double ***in, int n3, int n2, int n1)
{
    int i3, i2, i1;
#pragma omp parallel for private(i2, i1)
    for (i3 = 1; i3 < n3 - 1; i3++)
        for (i2 = 1; i2 < n2 - 1; i2++)
            for (i1 = 1; i1 < n1 - 1; i1++)
                out[i3][i2][i1] = 0.5 * in[i3][i2][i1]
                    + (in[i3 - 1][i2][i1] + in[i3 + 1][i2][i1] + in[i3][i2 - 1][i1]
                       + in[i3][i2 + 1][i1] + in[i3][i2][i1 - 1] + in[i3][i2][i1 + 1]) / 12.0;
}

static void scale_all(double ***g, int n3, int n2, int n1, double f)
{
    int i3, i2, i1;
#pragma omp parallel for private(i2, i1)
    for (i3 = 0; i3 < n3; i3++)
        for (i2 = 0; i2 < n2; i2++)
            for (i1 = 0; i1 < n1; i1++)
                g[i3][i2][i1] = g[i3][i2][i1] * f + 1.0;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 40, i3, i2, i1;
    double ***a = grid(n, n, n), ***b = grid(n, n, n), ***p = periodic(n, n, n);
    double s = 0.0;
    for (i3 = 0; i3 < n; i3++)
        for (i2 = 0; i2 < n; i2++)
            for (i1 = 0; i1 < n; i1++)
                a[i3][i2][i1] = p[i3][i2][i1] = (i3 * 7 + i2 * 3 + i1) % 11;
    smooth(b, a, n, n, n);
    if (argc > 2)
        scale_all(p, n, n, n, 0.5);
    for (i3 = 1; i3 < n - 1; i3++)
        s += b[i3][i3][i3] + p[i3][1][i3];
    printf("%.6f\n", s);
    return 0;
}

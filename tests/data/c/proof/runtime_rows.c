/* A grid declared at its largest size and swept up to the size read from the command
   line, as codes sized by their input do: a sweep whose reads stay in their rows, and a
   pass reading a[i][j + 1] for j < m, which at the full width (the default) is
   a[i + 1][0], the next iteration's (a race: it runs only with a second argument). */
#include <stdio.h>
#include <stdlib.h>

#define MAXN 512

static double a[MAXN][MAXN], b[MAXN][MAXN];

int main(int argc, char **argv)
{
    int m = argc > 1 ? atoi(argv[1]) : MAXN;
    int i, j;
    for (i = 0; i < m; i++)
        for (j = 0; j < m; j++)
            a[i][j] = (i * 3 + j) % 7;
#pragma omp parallel for private(j)
    for (i = 1; i < m - 1; i++)
        for (j = 1; j < m - 1; j++)
            b[i][j] = 0.25 * (a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1]);
    if (argc > 2) {
#pragma omp parallel for private(j)
        for (i = 0; i < m - 1; i++)
            for (j = 0; j < m; j++)
                a[i][j] = 0.5 * (a[i][j] + a[i][j + 1]);
    }
    double s = 0;
    for (i = 0; i < m; i++)
        for (j = 0; j < m; j++)
            s += (a[i][j] + b[i][j]) * (i % 5 + 1);
    printf("%.6f\n", s);
    return 0;
}

/* A multigrid-style driver: the same smoothing kernel runs on grids of
   several sizes computed from argv, and a diagnostics loop runs only when
   asked for ("-v"). Sizes differ between calls of one loop. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void smooth(double *v, const double *f, int count)
{
#pragma omp parallel for
    for (int i = 1; i < count - 1; i++)
        v[i] = 0.5 * (f[i - 1] + f[i + 1]) + 0.25 * f[i];
}

static double diagnostics(const double *v, int count)
{
    double worst = 0.0;
#pragma omp parallel for reduction(max:worst)
    for (int i = 0; i < count; i++)
        worst = v[i] > worst ? v[i] : worst;
    return worst;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1024;
    int levels = argc > 2 ? atoi(argv[2]) : 3;
    int verbose = argc > 3 && strcmp(argv[3], "-v") == 0;
    if (n < 8 || levels < 1) {
        fprintf(stderr, "error: grid too small (n=%d, levels=%d)\n", n, levels);
        return 3;
    }
    double *v = calloc(n, sizeof(double)), *f = malloc(sizeof(double) * n);
    for (int i = 0; i < n; i++) f[i] = (i % 17) * 0.01;
    double total = 0.0;
    for (int l = 0, size = n; l < levels; l++, size /= 2) {
        smooth(v, f, size);
        total += v[size / 2];
    }
    if (verbose)
        printf("max %.6f\n", diagnostics(v, n));
    printf("total %.10e\n", total);
    free(v);
    free(f);
    return 0;
}

/* A helper that fills a thread's scratch row, but returns first for most seeds: then
 * the row still holds what an earlier iteration of the same thread left. */
#include <stdio.h>
#define N 400
static double out[N];

static void fill(int n, double *row, int seed)
{
    if (seed % 7 != 0)
        return;
    for (int i = 0; i < n; i++)
        row[i] = seed * 0.5 + i;
}

int main(int argc, char **argv)
{
    double row[4] = {0};
    (void)argc;
    (void)argv;
#pragma omp parallel for firstprivate(row)
    for (int k = 0; k < N; k++) {
        fill(4, row, k);
        out[k] = row[0];
    }
    double s = 0.0;
    for (int k = 0; k < N; k++)
        s += out[k] * (k % 5);
    printf("%.3f\n", s);
    return 0;
}

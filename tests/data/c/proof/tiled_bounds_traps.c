/* Tiles that reach into the next one: a bound one past the tile's end (<= where < was
 * meant, a smoothing reading the next tile's first row) and a tile that runs to the
 * array's end when either test holds (||). Each updates in place, so which tile runs
 * first changes the result. */
#include <stdio.h>

#define N 300
#define BS 32

static double v[N], w[N];

static void overlap_by_one(int n, int bs)
{
#pragma omp parallel for schedule(static)
    for (int t = 0; t < n; t += bs)
        for (int i = t; i <= t + bs && i < n; i++)
            v[i] = 0.5 * v[i] + 1.0;
}

static void either_bound(int n, int bs)
{
#pragma omp parallel for schedule(static)
    for (int t = 0; t < n; t += bs)
        for (int i = t; i < t + bs || i < t + 2; i++)
            w[i] = 0.5 * w[i] + 1.0;
}

int main(void)
{
    for (int i = 0; i < N; i++)
        v[i] = w[i] = i % 11;
    overlap_by_one(N, BS);
    either_bound(N, BS);
    double s = 0.0;
    for (int i = 0; i < N; i++)
        s += v[i] * (i % 3 + 1) + w[i];
    printf("%.9f\n", s);
    return 0;
}

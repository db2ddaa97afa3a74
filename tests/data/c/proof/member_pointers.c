/* Views whose pointer members point at shared grids, held in a thread's own struct:
 * each iteration touches its own element of the grid, so every loop varies. */
#include <stdio.h>

#define N 2000

struct view {
    double *data;
    int n;
};

static double g[N], h[N];

int main(void)
{
    struct view w;
    double s = 0.0;
    for (int i = 0; i < N; i++)
        h[i] = i * 0.25;
#pragma omp parallel for private(w)
    for (int i = 0; i < N; i++) {
        w.data = g;
        w.n = N;
        w.data[i] = h[i] * 2.0 + w.n;
    }
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        struct view v = {h, N};
        v.data[i] = v.data[i] * 0.5 + g[i];
    }
    for (int i = 0; i < N; i++)
        s += g[i] * (i % 7) + h[i] * (i % 5);
    printf("%.6f\n", s);
    return 0;
}

/* Views whose pointer members point at shared grids, held in a thread's own struct
 * (private, or declared in the loop body): subscripts through a pointer member reach
 * the grid, not the struct, so neighbouring iterations meet there. */
#include <stdio.h>

#define N 2000

struct view {
    double *data;
    int n;
};

struct planes {
    double *rows[2];
    int which;
};

static double g[N + 1], h[N + 1];

int main(void)
{
    struct view w;
    double s = 0.0;
#pragma omp parallel for private(w)
    for (int i = 0; i < N; i++) {
        w.data = g;
        w.n = N;
        w.data[i] += w.data[i + 1];
    }
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        struct view v;
        v.data = h;
        v.n = N;
        v.data[i + 1] = v.data[i] * 0.5 + 1.0;
    }
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        struct planes p;
        p.rows[0] = g;
        p.rows[1] = h;
        p.which = i % 2;
        p.rows[p.which][i] = p.rows[1 - p.which][i + 1] + 1.0;
    }
    for (int i = 0; i <= N; i++)
        s += g[i] * (i % 7) + h[i] * (i % 5);
    printf("%.6f\n", s);
    return 0;
}

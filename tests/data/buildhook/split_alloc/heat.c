/* A 1-D heat solver whose fields come from new_field() in grid.c: the proof needs
   that file to know the two fields are distinct objects. */
#include <stdio.h>
#include "grid.h"
#define N 200000
#define STEPS 20

int main(void)
{
    double *u = new_field(N), *v = new_field(N);
    for (int i = 0; i < N; i++)
        u[i] = v[i] = (i % 100) * 0.01;
    for (int s = 0; s < STEPS; s++) {
#pragma omp parallel for
        for (int i = 1; i < N - 1; i++)
            v[i] = u[i] + 0.25 * (u[i - 1] - 2.0 * u[i] + u[i + 1]);
        double *t = u;
        u = v;
        v = t;
    }
    double s = 0.0;
    for (int i = 0; i < N; i++)
        s += u[i] * (i % 7);
    printf("%.6f\n", s);
    return 0;
}

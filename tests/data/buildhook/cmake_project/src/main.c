#include <stdio.h>
#include "saxpy.h"

static float x[N], y[N];

int main(void)
{
    int i, r;
    double sum = 0.0;
#pragma omp parallel for
    for (i = 0; i < N; i++) {
        x[i] = (float)(i % 100) / 10.0f;
        y[i] = (float)(i % 7);
    }
    for (r = 0; r < REPS; r++)
        saxpy(0.5f, x, y);
    for (i = 0; i < N; i++)
        sum += y[i];
    printf("sum %.3f\n", sum);
    return 0;
}

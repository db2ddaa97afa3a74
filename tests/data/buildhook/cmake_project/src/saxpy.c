#include "saxpy.h"

void saxpy(float a, const float *restrict x, float *restrict y)
{
    int i;
#pragma omp parallel for schedule(static)
    for (i = 0; i < N; i++)
        y[i] = a * x[i] + y[i];
}

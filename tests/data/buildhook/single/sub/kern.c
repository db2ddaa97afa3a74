#include <stdio.h>
#include "kern.h"
#define M 4000

static double a[M];

int main(void)
{
    int i, unused;
#pragma omp parallel for schedule(static)
    for (i = 0; i < M; i++)
        a[i] = i * SCALE;
    printf("%s:%d %.1f\n", __FILE__, __LINE__, a[M - 1]);
    return 0;
}

#include <stdio.h>
#include <stdlib.h>
#include "kernels.h"

extern int autotune_asm_marker;
static double in[N], out[N];
static int v[N];

int main(void)
{
    int i;
    double sum = 0.0;
#pragma omp parallel for schedule(static)
    for (i = 0; i < N; i++) {
        in[i] = (double)((i * 7919) % 1000) / 1000.0;
        v[i] = (i * 31) % 97;
    }
    stencil(out, in, STEPS);
    for (i = 0; i < N; i++)
        sum += out[i];
    printf("checksum %.12f\n", sum);
    printf("multiples %ld\n", count_multiples(v, N, 3));
    printf("squares %ld\n", sum_squares(v));
    printf("marker %d\n", autotune_asm_marker);
    return 0;
}

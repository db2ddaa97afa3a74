/* A loop that reports its progress: the output order is the iteration order. */
#include <stdio.h>

#define N 64

int main(void)
{
    double x[N];
#pragma omp parallel for schedule(static)
    for (int i = 0; i < N; i++) {
        x[i] = 0.5 * i * i;
        printf("row %d: %.3f\n", i, x[i]);
    }
    return 0;
}

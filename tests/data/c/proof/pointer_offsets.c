/* Offsets between pointers into one of the iteration's own arrays: numbers that are the
 * same on every thread (a median's position in a sorted window). */
#include <stdio.h>

#define N 2000
#define W 9

static double in[N + W];
static long where[N];

int main(void)
{
    for (int i = 0; i < N + W; i++)
        in[i] = (i * 37) % 101;
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        double window[W];
        double *best = window;
        for (int k = 0; k < W; k++)
            window[k] = in[i + k];
        for (int k = 1; k < W; k++)
            if (window[k] > *best)
                best = &window[k];
        where[i] = (long)(best - window);
    }
    long s = 0;
    for (int i = 0; i < N; i++)
        s += where[i] * (i % 5 + 1);
    printf("%ld\n", s);
    return 0;
}

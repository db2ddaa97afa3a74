/* Packing (x, y) pairs into one interleaved buffer with a cursor the runtime keeps
 * linear: each iteration starts with out_pos = 2 * i from the cursor's entry value, so
 * iterations write disjoint pairs under any schedule, and the cursor ends at 2 * N. */
#include <stdio.h>
#define N 50000
static double xs[N], ys[N], packed[2 * N + 8];

int main(void)
{
    int out_pos = 4;  /* a header before the pairs */
    for (int i = 0; i < N; i++) {
        xs[i] = (i % 17) * 0.5;
        ys[i] = (i % 29) * 0.25;
    }
#pragma omp parallel for linear(out_pos : 2)
    for (int i = 0; i < N; i++) {
        packed[out_pos] = xs[i] * 2.0;
        packed[out_pos + 1] = ys[i] - 1.0;
        out_pos += 2;
    }
    double s = 0.0;
    for (int k = 0; k < 2 * N + 4; k++)
        s += packed[k] * (k % 7);
    printf("%d %.4f\n", out_pos, s);
    return 0;
}

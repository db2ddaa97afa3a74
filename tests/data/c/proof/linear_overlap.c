/* A cursor declared linear with step 1 while each iteration writes two slots: the
 * second slot of iteration i is the first of iteration i + 1. */
#include <stdio.h>
#define N 20000
static double buf[N + 2];

int main(void)
{
    int pos = 0;
#pragma omp parallel for linear(pos : 1)
    for (int i = 0; i < N; i++) {
        buf[pos] = i * 0.5;
        buf[pos + 1] = -i * 0.25;
        pos += 1;
    }
    double s = 0.0;
    for (int k = 0; k < N + 1; k++)
        s += buf[k] * (k % 5);
    printf("%.4f\n", s);
    return 0;
}

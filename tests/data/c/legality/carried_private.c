/* A firstprivate running value carried from one iteration to the next
   (a prefix-like recurrence): each thread's values depend on which
   iterations it ran before. */
#include <stdio.h>

#define N 1000
static double y[N];

int main(void)
{
    double acc = 1.0;
#pragma omp parallel for firstprivate(acc) schedule(static)
    for (int i = 0; i < N; i++) {
        acc = acc * 0.5 + i;
        y[i] = acc;
    }
    double s = 0.0;
    for (int i = 0; i < N; i++)
        s += y[i];
    printf("%.6f\n", s);
    return 0;
}

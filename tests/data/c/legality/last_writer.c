/* The index of "a" residual over the tolerance kept in a shared variable:
   whichever thread writes last decides which index is printed (a race the
   static schedule happens to settle the same way most runs). */
#include <stdio.h>
#include <math.h>

#define N 50000
static double r[N];

int main(void)
{
    int where = -1;
    for (int i = 0; i < N; i++)
        r[i] = fabs(sin(0.001 * i)) * 1e-3;
#pragma omp parallel for schedule(static)
    for (int i = 0; i < N; i++)
        if (r[i] > 9.9e-4)
            where = i;
    printf("a residual over tolerance at %d\n", where);
    return 0;
}

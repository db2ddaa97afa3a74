/* Validity checks as codes write them before a solve: every value finite and in range
   (reduction(&&)), any value out of range (reduction(||)), each spelled out as
   ok = ok && cond. Any order gives the same truth value. */
#include <stdio.h>

#define N 100000

static double a[N];

int main(void)
{
    for (int i = 0; i < N; i++)
        a[i] = (i * 37 % 101) * 0.5 - (i == 777 ? 100.0 : 0.0);
    int ok = 1, any = 0;
#pragma omp parallel for reduction(&& : ok)
    for (int i = 0; i < N; i++)
        ok = ok && (a[i] >= 0.0);
#pragma omp parallel for reduction(|| : any)
    for (int i = 0; i < N; i++)
        any = any || (a[i] < 0.0);
    printf("%d %d\n", ok, any);
    return 0;
}

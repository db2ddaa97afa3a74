/* A loop written through a macro (as some codes wrap their loops): autotune cannot
   instrument it, so no profile run is made and its size stays unknown. */
#include <stdio.h>
#include <stdlib.h>
#define LOOP(i, n) for (int i = 0; i < n; i++)
static double a[100000];
int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
#pragma omp parallel for
    LOOP(i, n) a[i] = i * 0.5;
    printf("%f\n", a[n - 1]);
    return 0;
}

/* A running sum kept in a lastprivate and printed as a checksum. */
#include <stdio.h>
#define N 1000
static long x[N];

int main(void)
{
    long acc = 0;
    for (int i = 0; i < N; i++)
        x[i] = i % 17;
#pragma omp parallel for firstprivate(acc) lastprivate(acc)
    for (int i = 0; i < N; i++)
        acc += x[i];
    printf("%ld\n", acc);
    return 0;
}

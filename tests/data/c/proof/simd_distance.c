/* A vectorisable recurrence of distance 8: legal as simd with safelen(8), not as
 * a worksharing loop whose iterations may run on other threads in any order. */
#include <stdio.h>
#define N 4096
static long v[N];

int main(void)
{
    for (int i = 0; i < N; i++)
        v[i] = i % 3;
#pragma omp parallel for simd safelen(8)
    for (int i = 8; i < N; i++)
        v[i] = v[i - 8] + i;
    long s = 0;
    for (int i = 0; i < N; i++)
        s = s * 31 + v[i];
    printf("%ld\n", s);
    return 0;
}

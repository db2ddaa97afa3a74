/* Values kept per thread and set by main alone before the loop: gcc's __thread, C11's
   _Thread_local and OpenMP's threadprivate give every thread its own copy, so only the
   iterations main's thread runs see main's values, the others the initial ones. */
#include <stdio.h>

#define N 100000

static __thread int scale = 1;
static _Thread_local int offset = 0;
static int shift = 0;
#pragma omp threadprivate(shift)
static long a[N], b[N];

static long shifted(int i) { return (long)i + shift; }

int main(void)
{
    int i;
    scale = 3;
    offset = 7;
    shift = 11;
#pragma omp parallel for
    for (i = 0; i < N; i++)
        a[i] = (long)i * scale + offset;
#pragma omp parallel for
    for (i = 0; i < N; i++)
        b[i] = shifted(i);
    long s = 0;
    for (i = 0; i < N; i++)
        s += a[i] + b[i];
    printf("%ld\n", s);
    return 0;
}

/* Per-thread values every thread holds alike: a threadprivate scale copied in from main
   by the loop's region (copyin), and a thread-local table never stored to after its
   initializer. */
#include <stdio.h>

#define N 100000

static int scale = 1;
#pragma omp threadprivate(scale)
static __thread int base = 5;
static long a[N];

int main(void)
{
    int i;
    scale = 3;
#pragma omp parallel for copyin(scale)
    for (i = 0; i < N; i++)
        a[i] = (long)i * scale + base;
    long s = 0;
    for (i = 0; i < N; i++)
        s += a[i];
    printf("%ld\n", s);
    return 0;
}

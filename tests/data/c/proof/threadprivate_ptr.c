/* A per-thread counter (threadprivate) bumped through a pointer to it. */
#include <stdio.h>
#define N 1000
static int count;
#pragma omp threadprivate(count)
static int seen[N];

static int *counter(void) { return &count; }

int main(void)
{
#pragma omp parallel for schedule(static)
    for (int i = 0; i < N; i++) {
        int *c = counter();
        seen[i] = (*c)++;
    }
    long s = 0;
    for (int i = 0; i < N; i++)
        s += seen[i] * (i % 13);
    printf("%ld\n", s);
    return 0;
}

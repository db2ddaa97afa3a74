/* The thread's number travels as a parameter into a function whose 'omp for' is
 * orphaned: which iteration a thread records depends on the schedule. */
#include <stdio.h>
#include <omp.h>
#define N 4000
#define MAXT 64
static int last[MAXT];

static void work(int me, int n)
{
#pragma omp for
    for (int i = 0; i < n; i++)
        last[me] = i;
}

int main(void)
{
#pragma omp parallel
    {
        work(omp_get_thread_num(), N);
    }
    long s = 0;
    for (int t = 0; t < MAXT; t++)
        s = s * 17 + last[t];
    printf("%ld\n", s);
    return 0;
}

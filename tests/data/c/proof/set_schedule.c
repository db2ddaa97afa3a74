/* The program picks its own run-time schedule; the loop stamps each element with the
 * previous one's value (order-dependent). */
#include <stdio.h>
#include <omp.h>
#define N 5000
static long w[N];

int main(void)
{
    omp_set_schedule(omp_sched_static, 0);
    w[0] = 1;
#pragma omp parallel for schedule(runtime)
    for (int i = 1; i < N; i++)
        w[i] = w[i - 1] % 1000 + i;
    long s = 0;
    for (int i = 0; i < N; i++)
        s = (s * 7 + w[i]) % 1000000007L;
    printf("%ld\n", s);
    return 0;
}

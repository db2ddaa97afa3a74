/* Per-thread partial sums combined after the loop in ways that see each thread's share:
   a sum of squares of the shares, each share in its thread's slot, one thread's share
   alone, a share summed into another copy of the thread's own and squared later, and a
   product of the shares. Another schedule hands the threads other shares. */
#include <omp.h>
#include <stdio.h>

#define N 100000
static long x[N], slot[64];

int main(void)
{
    long squares = 0, first = 0, later = 0, product = 1;
    for (int i = 0; i < N; i++)
        x[i] = i % 7 + 1;
#pragma omp parallel
    {
        long acc = 0;
#pragma omp for
        for (int i = 0; i < N; i++)
            acc += x[i];
#pragma omp critical
        squares += acc * acc;
    }
#pragma omp parallel
    {
        long acc = 0;
        int tid = omp_get_thread_num();
#pragma omp for
        for (int i = 0; i < N; i++)
            acc += x[i];
#pragma omp critical
        slot[tid % 64] += acc;
    }
#pragma omp parallel
    {
        long acc = 0;
#pragma omp for
        for (int i = 0; i < N; i++)
            acc += x[i];
        if (omp_get_thread_num() == 0) {
#pragma omp atomic
            first += acc;
        }
    }
#pragma omp parallel
    {
        long acc = 0, mine = 0;
#pragma omp for
        for (int i = 0; i < N; i++)
            acc += x[i];
#pragma omp critical
        mine += acc;
#pragma omp critical
        later += mine * mine;
    }
#pragma omp parallel
    {
        long acc = 0;
#pragma omp for
        for (int i = 0; i < 40; i++)
            acc += x[i] % 3;
#pragma omp critical
        product *= acc + 1;
    }
    printf("%ld %ld %ld %ld %ld\n", squares, slot[0], first, later, product);
    return 0;
}

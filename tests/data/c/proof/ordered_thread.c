/* Written in order, but what is written names the thread that ran the iteration. */
#include <omp.h>
#include <stdio.h>
#define N 64

int main(void)
{
#pragma omp parallel for ordered
    for (int i = 0; i < N; i++) {
#pragma omp ordered
        printf("%d ran on %d\n", i, omp_get_thread_num());
    }
    return 0;
}

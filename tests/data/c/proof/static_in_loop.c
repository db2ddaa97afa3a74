/* A static counter declared inside the loop body: one variable for every iteration and
 * thread, handing out numbers in the order iterations run. */
#include <stdio.h>
#define N 100
static int seq[N];
int main(void)
{
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        static int next = 0;
        seq[i] = next++;
    }
    printf("%d\n", seq[N - 1]);
    return 0;
}

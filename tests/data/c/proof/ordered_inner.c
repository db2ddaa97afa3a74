/* An ordered region inside an inner loop runs more than once per iteration, which
 * OpenMP does not allow: it is not read as ordering anything. */
#include <stdio.h>
#define N 32

int main(void)
{
#pragma omp parallel for ordered
    for (int i = 0; i < N; i++) {
        for (int k = 0; k < 2; k++) {
#pragma omp ordered
            printf("%d %d\n", i, k);
        }
    }
    return 0;
}

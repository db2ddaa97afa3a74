/* An argmax under a critical section, without a tie-break: ties go to whichever
 * thread enters first. */
#include <stdio.h>
#define N 10000
static int val[N];

int main(void)
{
    int best = -1, where = -1;
    for (int i = 0; i < N; i++)
        val[i] = (i * 7919) % 97;
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
#pragma omp critical
        {
            if (val[i] >= best) {
                best = val[i];
                where = i;
            }
        }
    }
    printf("%d %d\n", best, where);
    return 0;
}

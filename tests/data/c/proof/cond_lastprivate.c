/* lastprivate of a value set only on some iterations: the last iteration does not
 * set it, so the value left is whichever the thread that ran it set last. */
#include <stdio.h>
#define N 1000
static int data[N];

int main(void)
{
    int found = -1;
    for (int i = 0; i < N; i++)
        data[i] = (i * 37) % 101;
#pragma omp parallel for lastprivate(found)
    for (int i = 0; i < N; i++) {
        if (data[i] > 95)
            found = i;
    }
    printf("%d\n", found);
    return 0;
}

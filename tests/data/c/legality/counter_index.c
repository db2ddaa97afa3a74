/* A shared counter captured atomically and used as an output slot
   (compaction as in sparse assembly): slot order follows thread order. */
#include <stdio.h>

#define N 5000
static int out[N];

int main(void)
{
    int next = 0;
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        if (i % 3 == 0) {
            int slot;
#pragma omp atomic capture
            slot = next++;
            out[slot] = i;
        }
    }
    long check = 0;
    for (int k = 0; k < next; k++)
        check += (long)out[k] * (k % 13);
    printf("%d kept, check %ld\n", next, check);
    return 0;
}

/* A row offset declared linear(off: 8) that the body reads but never advances: gcc
 * starts each chunk at the entry value plus 8 times the chunk's first iteration and
 * leaves the rest to the body, so the offsets an iteration sees follow the chunks. */
#include <stdio.h>
#define N 4000
static int first_of_row[N];

int main(void)
{
    int off = 100;
#pragma omp parallel for linear(off : 8)
    for (int i = 0; i < N; i++)
        first_of_row[i] = off;
    long s = 0;
    for (int i = 0; i < N; i++)
        s += (long)first_of_row[i] * (i % 7);
    printf("%ld %d\n", s, off);
    return 0;
}

/* A ticket dispenser: a function-static counter reached through a returned pointer;
 * each iteration takes the next ticket, so which iteration gets which follows the order. */
#include <stdio.h>
#define N 1000
static int ticket[N];

static int *next_ticket(void)
{
    static int t = 0;
    return &t;
}

int main(void)
{
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        int *t = next_ticket();
#pragma omp critical
        ticket[i] = (*t)++;
    }
    long s = 0;
    for (int i = 0; i < N; i++)
        s = (s * 31 + ticket[i]) % 1000003;
    printf("%ld\n", s);
    return 0;
}

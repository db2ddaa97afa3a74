/* Array reductions whose bodies see more than the reduction: a histogram capped by a
   test of the count so far (each thread's partial copy), a count scaled by another
   operator than the clause's, and a tally also kept through the shared array itself. */
#include <stdio.h>

#define N 200000
#define B 32

static int key[N];
static long shared_tally[B];

int main(void)
{
    long hist[B] = {0}, scaled[B], capped[B] = {0};
    long *tally = shared_tally;
    int i;
    for (i = 0; i < B; i++)
        scaled[i] = 1;
    for (i = 0; i < N; i++)
        key[i] = (int)((i * 2654435761u) % B);
#pragma omp parallel for reduction(+ : capped[:B])
    for (i = 0; i < N; i++)
        if (capped[key[i]] < 1000)
            capped[key[i]]++;
#pragma omp parallel for reduction(+ : scaled[:B])
    for (i = 0; i < N; i++)
        if (key[i] == 3)
            scaled[i % B] *= 2;
#pragma omp parallel for reduction(+ : tally[:B])
    for (i = 0; i < N; i++) {
        tally[key[i]] += 1;
        shared_tally[key[i]] += 1;
    }
    long h = 0;
    for (i = 0; i < B; i++)
        h = h * 7 + hist[i] + capped[i] + scaled[i] + shared_tally[i];
    printf("%ld\n", h);
    return 0;
}

/* Collect the indices that pass a test into a shared list (neighbour lists,
   particle binning): the list order depends on the order threads enter. */
#include <stdio.h>

#define N 4000
static int hits[N];
static double val[N];

int main(void)
{
    int nhits = 0;
    for (int i = 0; i < N; i++)
        val[i] = (i * 7919) % 1000 / 1000.0;
#pragma omp parallel for schedule(static)
    for (int i = 0; i < N; i++) {
        if (val[i] > 0.5) {
#pragma omp critical
            {
                hits[nhits] = i;
                nhits++;
            }
        }
    }
    long check = 0;
    for (int k = 0; k < nhits; k++)
        check += (long)hits[k] * (k + 1);
    printf("%d hits, weighted %ld\n", nhits, check);
    return 0;
}

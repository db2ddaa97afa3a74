/* Per-thread histograms merged under critical whose total shows the team: bins that
 * start at one, a merge that resets, bins merged only up to the thread's number. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N 4000
#define B 8

static int key[N];
static long hist[3][B];

int main(void)
{
    for (int i = 0; i < N; i++)
        key[i] = (i * 7) % B;
#pragma omp parallel
    {
        long mine[B] = {1, 1, 1, 1, 1, 1, 1, 1};
#pragma omp for
        for (int i = 0; i < N; i++)
            mine[key[i]]++;
#pragma omp critical
        for (int b = 0; b < B; b++)
            hist[0][b] += mine[b];
    }
#pragma omp parallel
    {
        long *mine = calloc(B, sizeof(long));
#pragma omp for
        for (int i = 0; i < N; i++)
            mine[key[i]]++;
        mine[0] = 5;
#pragma omp critical
        for (int b = 0; b < B; b++)
            hist[1][b] += mine[b];
        free(mine);
    }
#pragma omp parallel
    {
        int me = omp_get_thread_num();
        long *mine = calloc(B, sizeof(long));
#pragma omp for
        for (int i = 0; i < N; i++)
            mine[key[i]]++;
#pragma omp critical
        for (int b = 0; b <= me; b++)
            hist[2][b] += mine[b];
        free(mine);
    }
    long s = 0;
    for (int r = 0; r < 3; r++)
        for (int b = 0; b < B; b++)
            s += hist[r][b] * (b + 1) * (r + 1);
    printf("%ld\n", s);
    return 0;
}

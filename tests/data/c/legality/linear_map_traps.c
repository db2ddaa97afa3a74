/* Each thread's own key counts, transformed after the loop in ways that differ from
   thread to thread before they are summed: a cumulative sum whose steps follow the
   thread's own counts, one done by the master thread alone, and one whose slot is the
   thread's number. Another schedule hands the threads other counts. */
#include <omp.h>
#include <stdio.h>

#define N 50000
#define M 64
static int key[N], hist1[M], hist2[M], hist3[M];

int main(void)
{
    for (int i = 0; i < N; i++)
        key[i] = (i * 37 + i / 5) % M;
#pragma omp parallel
    {
        int h[M], k;
        for (k = 0; k < M; k++)
            h[k] = 0;
#pragma omp for
        for (int i = 0; i < N; i++)
            h[key[i]]++;
        k = 0;
        while (k < M - 1) {
            h[k + 1] += h[k];
            k += 1 + (h[k] & 1);
        }
#pragma omp critical
        for (int j = 0; j < M; j++)
            hist1[j] += h[j];
    }
#pragma omp parallel
    {
        int h[M];
        for (int k = 0; k < M; k++)
            h[k] = 0;
#pragma omp for
        for (int i = 0; i < N; i++)
            h[key[i]]++;
#pragma omp master
        for (int k = 0; k < M - 1; k++)
            h[k + 1] += h[k];
#pragma omp critical
        for (int j = 0; j < M; j++)
            hist2[j] += h[j];
    }
#pragma omp parallel
    {
        int h[M];
        int me = omp_get_thread_num() % M;
        for (int k = 0; k < M; k++)
            h[k] = 0;
#pragma omp for
        for (int i = 0; i < N; i++)
            h[key[i]]++;
        h[me] += h[0];
#pragma omp critical
        for (int j = 0; j < M; j++)
            hist3[j] += h[j];
    }
    long s = 0;
    for (int j = 0; j < M; j++)
        s += (long)(j + 1) * (hist1[j] + 3L * hist2[j] + 7L * hist3[j]);
    printf("%ld\n", s);
    return 0;
}

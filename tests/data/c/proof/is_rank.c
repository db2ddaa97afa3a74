/* NAS IS's ranking (the OpenMP C version): rank() is called inside the parallel region;
   each thread counts the keys of its share into its own histogram (a local array of
   rank(), one per thread), under an orphaned 'omp for nowait', makes it cumulative and
   adds it into the shared histogram under a critical. Integer counts: any share of
   the keys gives the same histogram. */
#include <stdio.h>

#define NUM_KEYS (1 << 16)
#define MAX_KEY (1 << 11)
#define ITERATIONS 10

static int key_array[NUM_KEYS], key_buff1[MAX_KEY], key_buff2[NUM_KEYS];

static void rank(int iteration)
{
    int i;
    int prv_buff1[MAX_KEY];
#pragma omp master
    {
        key_array[iteration] = iteration;
        key_array[iteration + ITERATIONS] = MAX_KEY - iteration;
        for (i = 0; i < MAX_KEY; i++)
            key_buff1[i] = 0;
    }
#pragma omp barrier
    for (i = 0; i < MAX_KEY; i++)
        prv_buff1[i] = 0;
#pragma omp for nowait
    for (i = 0; i < NUM_KEYS; i++) {
        key_buff2[i] = key_array[i];
        prv_buff1[key_buff2[i]]++;
    }
    for (i = 0; i < MAX_KEY - 1; i++)
        prv_buff1[i + 1] += prv_buff1[i];
#pragma omp critical
    {
        for (i = 0; i < MAX_KEY; i++)
            key_buff1[i] += prv_buff1[i];
    }
#pragma omp barrier
}

int main(void)
{
    unsigned seed = 314159265u;
    for (int i = 0; i < NUM_KEYS; i++) {
        seed = seed * 1103515245u + 12345u;
        key_array[i] = (int)((seed >> 8) % MAX_KEY);
    }
    long check = 0;
#pragma omp parallel
    for (int it = 1; it <= ITERATIONS; it++) {
        rank(it);
#pragma omp master
        check += key_buff1[MAX_KEY / 2] + key_buff1[MAX_KEY - 1] * 3L;
#pragma omp barrier
    }
    printf("ranks %ld\n", check);
    return 0;
}

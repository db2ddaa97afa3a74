/* A Monte-Carlo code with one random stream per thread, kept in threadprivate state:
   the streams are seeded in one parallel region, the tallies cleared by a parallel
   loop, and the samples drawn in a later region from each thread's stream. A thread's
   stream lasts from one region to the next only while the thread count stays the same:
   libgomp lets the threads beyond a smaller team exit, their streams with them. */
#include <stdio.h>
#include <omp.h>

#define NBINS 1024
#define TEAM 3

static unsigned long long state;
#pragma omp threadprivate(state)

static double tally[NBINS];

static double draw(void)
{
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(state >> 11) / 9007199254740992.0;
}

int main(void)
{
#pragma omp parallel num_threads(TEAM)
    state = 12345ULL + 7919ULL * (unsigned long long)omp_get_thread_num();

#pragma omp parallel for num_threads(TEAM)
    for (int b = 0; b < NBINS; b++)
        tally[b] = 0.0;

    double sum = 0.0;
#pragma omp parallel num_threads(TEAM) reduction(+ : sum)
    for (int k = 0; k < 1000; k++)
        sum += draw();
    printf("%.12f\n", sum);
    return 0;
}

/* A parallel search that stops the loop once a thread finds a match (OpenMP 4.0
   cancellation, active with OMP_CANCELLATION=true): which iterations still run, and
   so which match is reported, follows the schedule and the team. */
#include <stdio.h>

#define NKEYS 200000

static int keys[NKEYS];

int main(void)
{
    int found = NKEYS;
    for (int i = 0; i < NKEYS; i++)
        keys[i] = (int)((i * 7919L) % 1000);
#pragma omp parallel
    {
#pragma omp for
        for (int i = 0; i < NKEYS; i++) {
            if (keys[i] == 17) {
#pragma omp critical(first_match)
                {
                    if (i < found)
                        found = i;
                }
#pragma omp cancel for
            }
#pragma omp cancellation point for
        }
    }
    printf("first match reported: %d\n", found);
    return 0;
}

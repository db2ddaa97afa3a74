/* A solver step that gives up as a team when a thread sees a diverging value: a
   thread that meets 'cancel parallel' ends the region for all at their next
   cancellation point, so how much of the update loop ran follows the schedule. */
#include <math.h>
#include <stdio.h>

#define NCELLS 200000

static double u[NCELLS], flux[NCELLS];

int main(void)
{
    int diverged = 0;
#pragma omp parallel
    {
        int bad = 0;
#pragma omp for nowait
        for (int i = 0; i < NCELLS; i++) {
            u[i] = sqrt((double)i) - 3.0;
            if (u[i] > 440.0)
                bad = 1;
        }
        if (bad) {
#pragma omp atomic write
            diverged = 1;
#pragma omp cancel parallel
        }
#pragma omp for
        for (int i = 0; i < NCELLS; i++)
            flux[i] = 2.0 * i;
    }
    double total = 0.0;
    for (int i = 0; i < NCELLS; i++)
        total += flux[i];
    printf("diverged %d, flux total %.17g\n", diverged, total);
    return 0;
}

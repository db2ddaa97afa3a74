/* One step of a reaction model: rates from the concentrations, then the concentrations
   from the rates, in one region with nowait between them. The rate loop was given
   chunks of 64 cells for its cache; the update loop was not. Each cell is read and
   written at the same iteration of both loops, but the two static schedules hand that
   iteration to different threads, so a cell may be updated before its rate is read
   from it: a race as written. It runs only when asked (an argument). */
#include <stdio.h>
#define CELLS 200000

static double c[CELLS], rate[CELLS];

int main(int argc, char **argv)
{
    int i;
    double total = 0.0;
    for (i = 0; i < CELLS; i++)
        c[i] = (i % 101) * 0.01;
#pragma omp parallel if (argc > 1)
    {
#pragma omp for schedule(static, 64) nowait
        for (i = 0; i < CELLS; i++)
            rate[i] = 0.3 * c[i] * c[i];
#pragma omp for schedule(static)
        for (i = 0; i < CELLS; i++)
            c[i] = c[i] - 0.1 * rate[i];
    }
    for (i = 0; i < CELLS; i++)
        total += c[i] * (i % 5);
    printf("total %.10e\n", total);
    return 0;
}

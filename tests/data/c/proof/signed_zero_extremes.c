/* Extremes of a damped particle step, as a molecular-dynamics code reports them.
   Particles at rest move by -damp * 0.0 = -0.0, others by 0.0: the largest move of a
   step in which nothing climbs is a zero, and which of -0.0 and 0.0 the max keeps
   follows the order in which partial maxima meet (printf shows "-0" or "0"). */
#include <math.h>
#include <stdio.h>

#define N 200000

static double vel[N], move[N];
static int cell[N];

int main(void)
{
    const double damp = 0.5;
    int i;
    for (i = 0; i < N; i++) {
        vel[i] = (i % 5 == 0) ? 0.0 : -(double)(i % 7);
        cell[i] = (i * 31) % 1024;
    }
    for (i = 0; i < N; i++)
        move[i] = (i % 2 == 0) ? -damp * vel[i] * 0.0 : vel[i] * 0.0;

    double climb = -INFINITY;
#pragma omp parallel for reduction(max : climb)
    for (i = 0; i < N; i++)
        climb = move[i] > climb ? move[i] : climb;

    int top = 0;
#pragma omp parallel for reduction(max : top)
    for (i = 0; i < N; i++)
        if (cell[i] > top)
            top = cell[i];

    printf("largest climb %g, highest cell %d\n", climb, top);
    return 0;
}

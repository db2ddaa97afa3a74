/* A front advancing one cell per step: each step relaxes every cell the front has
   reached, in one parallel region around the time loop, without a barrier between
   steps (nowait). Each cell is updated at the same iteration of every step, but the
   steps differ in length, so the static schedule hands the same cell to different
   threads in consecutive steps: a race as written. It runs only when asked (an
   argument); by default the region runs on one thread. */
#include <stdio.h>
#define CELLS 3000

static double front[CELLS];

int main(int argc, char **argv)
{
    int step, c;
    double energy = 0.0;
#pragma omp parallel private(step) if (argc > 1)
    for (step = 1; step < CELLS; step++) {
#pragma omp for nowait
        for (c = 0; c < step; c++)
            front[c] = front[c] * 0.5 + step;
    }
    for (c = 0; c < CELLS; c++)
        energy += front[c] * (c % 7 + 1);
    printf("energy %.10e\n", energy);
    return 0;
}

/* Per-thread scratch arrays whose leftovers are read after the loop: an orphaned
   sweep adds its buffer's last entry, and a time-stepped region reads a work array at
   the start of each step, before the next sweep sets it (the read precedes the loop in
   the text, and follows it at run time). Another schedule leaves other values. */
#include <stdio.h>
#define CELLS 1000
double u[CELLS], v[CELLS];
double total;
static void sweep(void)
{
    double buf[2];
#pragma omp for
    for (int c = 0; c < CELLS; c++) {
        buf[0] = u[c]; buf[1] = c;
        v[c] = buf[0] * 0.5;
    }
#pragma omp atomic
    total += buf[1];
}
int main(void)
{
    for (int c = 0; c < CELLS; c++) u[c] = c % 17;
    double acc = 0;
#pragma omp parallel reduction(+:acc)
    {
        double w[2] = {0, 0};
        for (int step = 0; step < 3; step++) {
            acc += w[1];
#pragma omp for
            for (int c = 0; c < CELLS; c++) { w[0] = u[c]; w[1] = c; v[c] += w[0]; }
        }
    }
#pragma omp parallel
    sweep();
    printf("%.1f %.1f %.1f\n", total, acc, v[3]);
    return 0;
}

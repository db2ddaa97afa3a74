/* A thread's own scalar set in a worksharing loop and read after it: each thread's copy
   holds the value of the last iteration that thread ran, which another schedule or
   thread count changes. A threadprivate "last cell" read by a later region, a region's
   private edge index combined after the loop, and an orphaned sweep's local. */
#include <stdio.h>
#define CELLS 1000
double u[CELLS], v[CELLS];
int last_cell;
#pragma omp threadprivate(last_cell)
long edge_sum, tail_sum;

static void sweep(void)
{
    int last = -1;
#pragma omp for
    for (int c = 0; c < CELLS; c++) {
        v[c] = 0.5 * u[c];
        last = c;
    }
#pragma omp atomic
    tail_sum += last;
}

int main(void)
{
    long seen = 0;
    for (int c = 0; c < CELLS; c++) u[c] = c % 17;
#pragma omp parallel for
    for (int c = 0; c < CELLS; c++) {
        u[c] = u[c] * 2.0;
        last_cell = c;
    }
#pragma omp parallel reduction(+ : seen)
    seen += last_cell;
    int edge;
#pragma omp parallel private(edge)
    {
#pragma omp for
        for (int c = 0; c < CELLS; c++) {
            v[c] = u[c] + 1.0;
            edge = c;
        }
#pragma omp atomic
        edge_sum += edge;
    }
#pragma omp parallel
    sweep();
    printf("%ld %ld %ld %.1f\n", seen, edge_sum, tail_sum, v[7]);
    return 0;
}

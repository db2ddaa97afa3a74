/* Input checks that stop the program at the first bad cell, as mesh and particle codes
   write them. Which cell is reported depends on which thread reaches its bad cell first:
   with cells 499 and 500 bad, one thread reports 499 and two threads report 500. */
#include <stdio.h>
#include <stdlib.h>
#define CELLS 1000
double rho[CELLS], vol[CELLS];

static void check_volume(const double *v, int c)
{
    if (v[c] <= 0.0) {
        fprintf(stderr, "non-positive volume %g\n", v[c]);
        exit(EXIT_FAILURE);
    }
}

int main(void)
{
    for (int c = 0; c < CELLS; c++) rho[c] = vol[c] = 1.0 + c % 5;
    rho[499] = -1.0;
    rho[500] = -2.0;
    vol[499] = 0.0;
    vol[500] = -3.0;
#pragma omp parallel for
    for (int c = 0; c < CELLS; c++) {
        if (rho[c] < 0.0) {
            printf("negative density in cell %d\n", c);
            exit(1);
        }
        rho[c] = 1.0 / rho[c];
    }
#pragma omp parallel for
    for (int c = 0; c < CELLS; c++) {
        check_volume(vol, c);
        vol[c] = vol[c] * 2.0;
    }
#pragma omp parallel for
    for (int c = 0; c < CELLS; c++) {
        if (rho[c] > 100.0)
            exit(c % 7 + 2);
        rho[c] = rho[c] + 1.0;
    }
    double s = 0.0;
    for (int c = 0; c < CELLS; c++) s += rho[c] + vol[c];
    printf("%.6f\n", s);
    return 0;
}

/* Charge deposition of a particle-in-cell code: each particle spreads its charge over
   the ORDER cells nearest to it, and merges the weights into the shared grid under a
   lock, one loop per particle. The updates commute (only the order of the
   floating-point additions changes). Collecting the cells a particle touched into one
   shared list under the same kind of lock does not commute: the list's order is the
   order threads take the lock; it runs only when asked (an argument), so that what the
   program prints by default does not follow it. */
#include <stdio.h>
#define NCELL 4096
#define NP 40000
#define ORDER 4

static double rho[NCELL + ORDER], xp[NP];
static int touched[NP * ORDER], ntouched;

int main(int argc, char **argv)
{
    int p;
    long check = 0;
    for (p = 0; p < NP; p++)
        xp[p] = (p * 0.6180339887) - (long)(p * 0.6180339887);
#pragma omp parallel for
    for (p = 0; p < NP; p++) {
        double x = xp[p] * NCELL, w[ORDER], s = 0.0;
        int cell = (int)x, k;
        for (k = 0; k < ORDER; k++) {
            w[k] = 1.0 + (x - cell) * k;
            s += w[k];
        }
#pragma omp critical
        for (k = 0; k < ORDER; k++)
            rho[cell + k] += w[k] / s;
    }
#pragma omp parallel for if (argc > 1)
    for (p = 0; p < NP / 8; p++) {
        int cell = (int)(xp[p] * NCELL), k;
#pragma omp critical
        for (k = 0; k < ORDER; k++)
            touched[ntouched++] = cell + k;
    }
    for (p = 0; p < NP / 8 * ORDER; p++)
        check += (long)touched[p] * (p % 7);
    double q = 0.0;
    for (p = 0; p < NCELL + ORDER; p++)
        q += rho[p] * (p % 5);
    printf("charge %.6e, list %ld\n", q, check);
    return 0;
}

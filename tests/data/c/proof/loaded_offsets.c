/* Places read from a table in the loop: cells whose offsets overlap by one element (a
 * halo shared with the next cell), so two iterations write one element. The offset as a
 * local, added to a pointer, as a subscript of a pointer set in the loop, and in private
 * clauses as lavaMD declares its box offsets. */
#include <stdio.h>

#define NCELL 1000

typedef struct { long offset; int count; } cell_t;

static cell_t cell[NCELL];
static double x[2 * NCELL + 2];

int main(void)
{
    long first;
    double *xb;
    for (int c = 0; c < NCELL; c++) {
        cell[c].offset = (c % 2) ? 0 : 2;
        cell[c].count = 1;
    }
#pragma omp parallel for
    for (int c = 0; c < NCELL; c++) {
        long here = cell[c].offset;
        x[c + here] = c;
    }
#pragma omp parallel for
    for (int c = 0; c < NCELL; c++) {
        double *xa = &x[cell[c].offset];
        xa[1] = c;
    }
#pragma omp parallel for
    for (int c = 0; c < NCELL; c++) {
        double *xa = &x[c];
        xa[cell[c].offset] += c;
    }
#pragma omp parallel for private(first, xb)
    for (int c = 0; c < NCELL; c++) {
        first = cell[c].offset;
        xb = &x[first];
        xb[1] = c;
    }
    double s = 0;
    for (int k = 0; k < 2 * NCELL + 2; k++)
        s += x[k] * (k + 1);
    printf("%.1f\n", s);
    return 0;
}

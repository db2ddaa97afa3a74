/* Short-range forces with cell lists, as molecular-dynamics proxy apps write them:
   the box is cut into cells of PER_CELL particles, each cell keeps the list of its
   neighbours (fewer at the faces and corners), and one thread takes a cell and runs
   over its neighbours' particles. The cells per side come from the command line. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define PER_CELL 16

typedef struct {
    double x, y, z, q;
} particle;

typedef struct {
    long offset;  /* first particle of the cell */
    int nn;       /* neighbours besides itself */
    int nei[26];
} cell;

static void forces(int ncells, const cell *cells, const particle *p, double *f, double alpha)
{
    int c, k, i, j, other;
    long first, near;
    double dx, dy, dz, r2, e;
#pragma omp parallel for private(k, i, j, other, first, near, dx, dy, dz, r2, e)
    for (c = 0; c < ncells; c++) {
        first = cells[c].offset;
        for (k = 0; k < 1 + cells[c].nn; k++) {
            other = k == 0 ? c : cells[c].nei[k - 1];
            near = cells[other].offset;
            for (i = 0; i < PER_CELL; i++)
                for (j = 0; j < PER_CELL; j++) {
                    dx = p[first + i].x - p[near + j].x;
                    dy = p[first + i].y - p[near + j].y;
                    dz = p[first + i].z - p[near + j].z;
                    r2 = dx * dx + dy * dy + dz * dz;
                    e = exp(-alpha * r2);
                    f[first + i] += p[near + j].q * e;
                }
        }
    }
}

int main(int argc, char **argv)
{
    int side = argc > 1 ? atoi(argv[1]) : 4;
    int ncells = side * side * side;
    cell *cells = malloc(sizeof(cell) * ncells);
    particle *p = malloc(sizeof(particle) * ncells * PER_CELL);
    double *f = calloc(ncells * PER_CELL, sizeof(double));
    double total = 0.0;
    int a, b, c, da, db, dc, n = 0;
    for (a = 0; a < side; a++)
        for (b = 0; b < side; b++)
            for (c = 0; c < side; c++, n++) {
                cells[n].offset = (long)n * PER_CELL;
                cells[n].nn = 0;
                for (da = -1; da <= 1; da++)
                    for (db = -1; db <= 1; db++)
                        for (dc = -1; dc <= 1; dc++) {
                            if ((da || db || dc) && a + da >= 0 && a + da < side && b + db >= 0
                                && b + db < side && c + dc >= 0 && c + dc < side)
                                cells[n].nei[cells[n].nn++] =
                                    ((a + da) * side + (b + db)) * side + (c + dc);
                        }
            }
    for (n = 0; n < ncells * PER_CELL; n++) {
        p[n].x = (n % 7) * 0.1;
        p[n].y = (n % 5) * 0.2;
        p[n].z = (n % 3) * 0.3;
        p[n].q = 1.0 / (1 + n % 4);
    }
    forces(ncells, cells, p, f, 0.5);
    for (n = 0; n < ncells * PER_CELL; n++)
        total += f[n];
    printf("total force %.6f\n", total);
    free(cells);
    free(p);
    free(f);
    return 0;
}

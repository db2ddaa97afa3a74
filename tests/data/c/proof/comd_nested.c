/* CoMD's link cells as CoMD declares them: the simulation holds pointers to the boxes
   and to the atoms, each box's atoms in a slab of MAXATOMS, the counts in
   s->boxes->nAtoms, and the velocity and position updates step an offset beside the
   atom counter (ii++, iOff++). Run as: comd_nested BOXES FILL (counts up to FILL - 1;
   above MAXATOMS the slabs overlap). */
#include <stdio.h>
#include <stdlib.h>

#define MAXATOMS 16

typedef double real3[3];

typedef struct {
    int nLocalBoxes;
    int *nAtoms;
} LinkCell;

typedef struct {
    real3 *r;
    real3 *p;
    real3 *f;
} Atoms;

typedef struct {
    LinkCell *boxes;
    Atoms *atoms;
} SimFlat;

static void advanceVelocity(SimFlat *s, int nBoxes, double dt)
{
#pragma omp parallel for
    for (int iBox = 0; iBox < nBoxes; iBox++) {
        for (int iOff = MAXATOMS * iBox, ii = 0; ii < s->boxes->nAtoms[iBox]; ii++, iOff++) {
            s->atoms->p[iOff][0] += dt * s->atoms->f[iOff][0];
            s->atoms->p[iOff][1] += dt * s->atoms->f[iOff][1];
            s->atoms->p[iOff][2] += dt * s->atoms->f[iOff][2];
        }
    }
}

static void advancePosition(SimFlat *s, int nBoxes, double dt)
{
#pragma omp parallel for
    for (int iBox = 0; iBox < s->boxes->nLocalBoxes; iBox++) {
        for (int iOff = MAXATOMS * iBox, ii = 0; ii < s->boxes->nAtoms[iBox]; ii++, iOff++) {
            s->atoms->r[iOff][0] += dt * s->atoms->p[iOff][0];
            s->atoms->r[iOff][1] += dt * s->atoms->p[iOff][1];
            s->atoms->r[iOff][2] += dt * s->atoms->p[iOff][2];
        }
    }
    (void)nBoxes;
}

int main(int argc, char **argv)
{
    int nb = argc > 1 ? atoi(argv[1]) : 200;
    int fill = argc > 2 ? atoi(argv[2]) : MAXATOMS + 1;
    SimFlat *s = malloc(sizeof *s);
    s->boxes = malloc(sizeof *s->boxes);
    s->atoms = malloc(sizeof *s->atoms);
    s->boxes->nLocalBoxes = nb;
    s->boxes->nAtoms = malloc(nb * sizeof(int));
    size_t slots = (size_t)(nb + 2) * MAXATOMS;
    s->atoms->r = calloc(slots, sizeof(real3));
    s->atoms->p = calloc(slots, sizeof(real3));
    s->atoms->f = malloc(slots * sizeof(real3));
    for (int b = 0; b < nb; b++)
        s->boxes->nAtoms[b] = (b * 7) % fill;
    for (size_t i = 0; i < slots; i++)
        for (int d = 0; d < 3; d++)
            s->atoms->f[i][d] = (double)((i + d) % 11);
    advanceVelocity(s, nb, 0.5);
    advancePosition(s, nb, 0.5);
    double t = 0;
    for (size_t i = 0; i < slots; i++)
        t += (s->atoms->r[i][0] + s->atoms->p[i][1]) * (i % 7 + 1);
    printf("%.6f\n", t);
    return 0;
}

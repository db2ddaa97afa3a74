/* Link-cell atom storage as CoMD and miniMD keep it: each box (bin) owns a slab of
   MAXATOMS (per_bin) slots, and its atom count is read from memory. Iterations over
   boxes write disjoint slabs only while every count is at most the slab's size: true
   of the data a correct program builds, and checked by a scan of the counts.
   Run as: cell_lists BOXES FILL (the largest count is FILL - 1; above the slab size
   the slabs overlap, and the kernels race as written). */
#include <stdio.h>
#include <stdlib.h>

#define MAXATOMS 16

typedef struct {
    int nLocalBoxes;
    int *nAtoms;
    double (*p)[3];
    double (*f)[3];
} Cells;

static void advance_velocity(Cells *s, double dt)
{
#pragma omp parallel for
    for (int iBox = 0; iBox < s->nLocalBoxes; iBox++) {
        int iOff = MAXATOMS * iBox;
        for (int ii = 0; ii < s->nAtoms[iBox]; ii++, iOff++) {
            s->p[iOff][0] += dt * s->f[iOff][0];
            s->p[iOff][1] += dt * s->f[iOff][1];
            s->p[iOff][2] += dt * s->f[iOff][2];
        }
    }
}

static void bin_scale(int nbins, const int *bincount, int per_bin, double *x, double k)
{
#pragma omp parallel for
    for (int b = 0; b < nbins; b++) {
        const int n = bincount[b];
        for (int m = 0; m < n; m++)
            x[b * per_bin + m] = x[b * per_bin + m] * k + b;
    }
}

/* a count read one box ahead: not the iteration's own, so no scan covers it */
static void pull_ahead(Cells *s, int nb)
{
#pragma omp parallel for
    for (int iBox = 0; iBox < nb - 1; iBox++) {
        for (int ii = 0; ii < s->nAtoms[iBox + 1]; ii++)
            s->f[iBox * MAXATOMS + ii][0] = s->f[iBox * MAXATOMS + ii][0] * 0.5 + iBox;
    }
}

/* the count read only on some iterations' paths: the scan would read what they do not */
static void damp_some(Cells *s, int nb, int parity)
{
#pragma omp parallel for
    for (int iBox = 0; iBox < nb; iBox++) {
        int n = 0;
        if (iBox % 2 == parity)
            n = s->nAtoms[iBox];
        for (int ii = 0; ii < n; ii++)
            s->f[iBox * MAXATOMS + ii][1] = s->f[iBox * MAXATOMS + ii][1] * 0.5 + iBox;
    }
}

/* each box's count cleared once its atoms are exported: a store to the counts */
static void export_box(Cells *s, int nb, double *out)
{
#pragma omp parallel for
    for (int iBox = 0; iBox < nb; iBox++) {
        const int n = s->nAtoms[iBox];
        for (int ii = 0; ii < n; ii++)
            out[iBox * MAXATOMS + ii] = s->f[iBox * MAXATOMS + ii][2] + iBox;
        s->nAtoms[iBox] = 0;
    }
}

int main(int argc, char **argv)
{
    int nb = argc > 1 ? atoi(argv[1]) : 500;
    int fill = argc > 2 ? atoi(argv[2]) : MAXATOMS + 1;
    if (nb < 2 || fill < 1 || fill > 2 * MAXATOMS)
        return 1;
    Cells s;
    size_t slots = (size_t)(nb + 2) * MAXATOMS;
    s.nLocalBoxes = nb;
    s.nAtoms = malloc(nb * sizeof *s.nAtoms);
    s.p = calloc(slots, sizeof *s.p);
    s.f = malloc(slots * sizeof *s.f);
    double *x = malloc(slots * sizeof *x);
    if (!s.nAtoms || !s.p || !s.f || !x)
        return 1;
    for (int b = 0; b < nb; b++)
        s.nAtoms[b] = (b * 7) % fill;
    for (size_t i = 0; i < slots; i++) {
        s.f[i][0] = (double)(i % 11);
        s.f[i][1] = (double)(i % 5);
        s.f[i][2] = 0.25;
        x[i] = (double)(i % 13);
    }
    advance_velocity(&s, 0.5);
    bin_scale(nb, s.nAtoms, MAXATOMS, x, 1.5);
    pull_ahead(&s, nb);
    damp_some(&s, nb, 1);
    export_box(&s, nb, x);
    double t = 0.0;
    for (size_t i = 0; i < slots; i++)
        t += (s.p[i][0] + s.p[i][1] + s.p[i][2] + s.f[i][0] + s.f[i][1]) * (i % 7 + 1) + x[i];
    printf("%.6f\n", t);
    free(s.nAtoms);
    free(s.p);
    free(s.f);
    free(x);
    return 0;
}

/* Drives the particle kernels over one of four layouts, named by the second argument:
 * "apart" (each array its own allocation), "block" (slices of one block), "shared"
 * (the forces and the velocities one array: the kernels' loops meet themselves) and
 * "inside" (the Field struct stored inside the array it points to, scaled by 1). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "particles.h"

static void fill(Particles *p)
{
    for (int i = 0; i < p->n; i++) {
        p->x[i] = (i % 17) * 0.25;
        p->y[i] = (i % 5) * 0.5;
        p->z[i] = (i % 3) * 0.75;
        p->vx[i] = (i % 7) * 0.1;
        p->vy[i] = (i % 11) * 0.05;
        p->vz[i] = (i % 13) * 0.02;
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    const char *layout = argc > 2 ? argv[2] : "apart";
    Particles p = {n, 1.5};
    double *block = calloc(9 * (size_t)n + 64, sizeof(double));
    double **members[] = {&p.x, &p.y, &p.z, &p.vx, &p.vy, &p.vz, &p.fx, &p.fy, &p.fz};
    for (int k = 0; k < 9; k++)
        *members[k] = strcmp(layout, "apart") ? block + (size_t)k * n : calloc(n, sizeof(double));
    if (!strcmp(layout, "shared")) {
        p.fx = p.vx + 1;
        p.fy = p.vy;
    }
    fill(&p);
    double e = 0.0;
    for (int step = 0; step < 4; step++) {
        for (int i = 0; i < n; i++) {
            p.fx[i] += 0.01 * (i % 9);
            p.fy[i] -= 0.02 * (i % 4);
            p.fz[i] += 0.005 * (i % 6);
        }
        push(&p, 0.01);
        e += kinetic_energy(&p);
        drift_copy(&p);
        scale_count(&p, n / 2, 1.001);
        blend(p.vy, step % 2 ? &p : NULL, n);
        zero_forces(&p);
    }
    long cells = 4 * (long)n;
    double *grid = calloc(cells + 64, sizeof(double));
    Field own = {cells, 0.5, grid}, *f = &own;
    if (!strcmp(layout, "inside")) {
        f = (Field *)(grid + cells / 2);  /* the struct lies in the cells it scales */
        f->cells = cells;
        f->spacing = 0.5;
        f->rho = grid;
    }
    for (long c = 0; c < cells; c++)
        if (c < cells / 2 || c >= cells / 2 + 8)
            grid[c] = (c % 19) * 0.1;
    /* inside: scaled by 1, the struct's own bytes (stored over as doubles) stay as they are */
    scale_field(f, strcmp(layout, "inside") ? 1.5 : 1.0);
    double sum = 0.0;
    for (long c = 0; c < cells / 2; c++)
        sum += grid[c] * (c % 3 + 1);
    for (int i = 0; i < n; i++)
        sum += p.x[i] + 2 * p.y[i] + 3 * p.z[i] + p.vx[i] + p.fx[i];
    printf("%s energy %.9e sum %.9e\n", layout, e, sum);
    return 0;
}

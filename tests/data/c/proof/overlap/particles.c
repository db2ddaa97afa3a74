/* Particle kernels of a small N-body code, compiled on their own: each takes the
 * particle set by pointer and reaches its arrays through the struct's pointer members,
 * as miniMD and CoMD do. Callers may hand it any layout: arrays from separate
 * allocations, slices of one block, one array behind two members, or the struct itself
 * stored inside an array it points to. */
#include "particles.h"

void push(Particles *p, double dt)
{
    double dtm = dt / p->mass;
#pragma omp parallel for
    for (int i = 0; i < p->n; i++) {
        p->vx[i] += dtm * p->fx[i];
        p->vy[i] += dtm * p->fy[i];
        p->vz[i] += dtm * p->fz[i];
        p->x[i] += dt * p->vx[i];
        p->y[i] += dt * p->vy[i];
        p->z[i] += dt * p->vz[i];
    }
}

void zero_forces(Particles *p)
{
#pragma omp parallel for
    for (int i = 0; i < p->n; i++)
        p->fx[i] = p->fy[i] = p->fz[i] = 0.0;
}

double kinetic_energy(const Particles *p)
{
    double e = 0.0;
#pragma omp parallel for reduction(+ : e)
    for (int i = 0; i < p->n; i++)
        e += p->vx[i] * p->vx[i] + p->vy[i] * p->vy[i] + p->vz[i] * p->vz[i];
    return 0.5 * p->mass * e;
}

void scale_field(Field *f, double s)
{
#pragma omp parallel for schedule(static)
    for (long c = 0; c < f->cells; c++)
        f->rho[c] *= s;
}

/* the count from the caller, the header never reads through the struct: every
   iteration does, so the test reads the members behind a check that the loop runs */
void scale_count(Particles *p, int n, double s)
{
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        p->y[i] = s * p->z[i];
}

/* traps: one array read one place ahead of where it is written, and members read only
   when the struct is there (callers pass NULL): no test may read them */
void drift_copy(Particles *p)
{
#pragma omp parallel for
    for (int i = 0; i < p->n - 1; i++)
        p->x[i] = p->x[i + 1] + p->vx[i];
}

void blend(double *out, const Particles *p, int n)
{
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        out[i] = p ? 0.5 * (out[i] + p->x[i]) : 0.5 * out[i];
}

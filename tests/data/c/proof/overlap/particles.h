/* Particle data as a structure of arrays, and a field on a grid: the layouts the
 * particle kernels (particles.c) and their callers (particles_driver.c) share. */
#ifndef PARTICLES_H
#define PARTICLES_H

typedef struct {
    int n;
    double mass;
    double *x, *y, *z;
    double *vx, *vy, *vz;
    double *fx, *fy, *fz;
} Particles;

typedef struct {
    long cells;
    double spacing;
    double *rho;
} Field;

void push(Particles *p, double dt);
void zero_forces(Particles *p);
double kinetic_energy(const Particles *p);
void scale_field(Field *f, double s);
void drift_copy(Particles *p);
void scale_count(Particles *p, int n, double s);
void blend(double *out, const Particles *p, int n);

#endif

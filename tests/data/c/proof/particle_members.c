/* Particle codes that write one member of each particle and read another member of
 * every particle: direct-sum forces into fx/fy/fz from the positions, a neighbour's
 * velocity read while the own position is moved, forces through a pointer to the
 * particle, a nested position struct. Every loop varies. */
#include <math.h>
#include <stdio.h>

#define N 500

struct vec3 {
    double x, y, z;
};

typedef struct {
    struct vec3 pos;
    double vx, vy, vz;
    double fx, fy, fz;
    double mass;
} particle_t;

static particle_t p[N];
static double energy[N];

static void compute_forces(particle_t *ps, int n)
{
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n; i++) {
        double fx = 0.0, fy = 0.0, fz = 0.0;
        for (int j = 0; j < n; j++) {
            if (j == i)
                continue;
            double dx = ps[j].pos.x - ps[i].pos.x;
            double dy = ps[j].pos.y - ps[i].pos.y;
            double dz = ps[j].pos.z - ps[i].pos.z;
            double r2 = dx * dx + dy * dy + dz * dz + 1e-3;
            double s = ps[j].mass / (r2 * sqrt(r2));
            fx += dx * s;
            fy += dy * s;
            fz += dz * s;
        }
        ps[i].fx = fx;
        ps[i].fy = fy;
        ps[i].fz = fz;
    }
}

/* the potential of each particle, through a pointer to it */
static void potential(particle_t *ps, int n)
{
#pragma omp parallel for
    for (int i = 0; i < n; i++) {
        particle_t *me = &ps[i];
        double e = 0.0;
        for (int j = 0; j < n; j++) {
            double dx = ps[j].pos.x - me->pos.x;
            e += ps[j].mass / (fabs(dx) + 1.0);
        }
        me->vz = 0.5 * e;
        energy[i] = e;
    }
}

/* each particle moves by its own velocity and is damped by its neighbours' */
static void advance(particle_t *ps, int n, double dt)
{
#pragma omp parallel for
    for (int i = 1; i < n - 1; i++) {
        ps[i].pos.x += dt * ps[i].vx;
        ps[i].fy += 0.1 * (ps[i - 1].vx + ps[i + 1].vx);
    }
}

int main(void)
{
    for (int i = 0; i < N; i++) {
        p[i].pos.x = i % 17;
        p[i].pos.y = i % 13;
        p[i].pos.z = i % 7;
        p[i].mass = 1 + i % 3;
        p[i].vx = 0.01 * (i % 5);
        p[i].vy = p[i].vz = 0.0;
        p[i].fx = p[i].fy = p[i].fz = 0.0;
    }
    for (int step = 0; step < 3; step++) {
        compute_forces(p, N);
        potential(p, N);
        advance(p, N, 0.01);
    }
    double e = 0.0;
    for (int i = 0; i < N; i++)
        e += p[i].pos.x + p[i].fx + p[i].fy + p[i].vz + energy[i];
    printf("%.6f\n", e);
    return 0;
}

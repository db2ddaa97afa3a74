/* Particles as an array of structs with array members, as molecular-dynamics and
 * N-body codes keep them: each iteration writes its own particle's force from the
 * positions of its neighbours (another member), advances its own position, or fills
 * its own member arrays. Distinct particles are distinct elements, and distinct
 * members of one struct type never share a byte. */
#include <stdio.h>
#include <stdlib.h>

#define N 2000
#define MAXN 12

typedef struct {
    double x[3];
    double v[3];
    double f[3];
    int type;
    unsigned long seed;
    int alive;
} particle_t;

static particle_t atoms[N];
static int numneigh[N], neigh[N * MAXN];

static void forces(particle_t *p, int n, const int *nn, const int *list, double cut2)
{
#pragma omp parallel for schedule(dynamic, 32)
    for (int i = 0; i < n; i++) {
        double fi[3] = {0.0, 0.0, 0.0};
        for (int k = 0; k < nn[i]; k++) {
            int j = list[i * MAXN + k];
            double d[3], r2 = 0.0;
            for (int c = 0; c < 3; c++) {
                d[c] = p[i].x[c] - p[j].x[c];
                r2 += d[c] * d[c];
            }
            if (r2 < cut2) {
                double s = 1.0 / (r2 * r2 * r2 + 1.0);
                for (int c = 0; c < 3; c++)
                    fi[c] += s * d[c];
            }
        }
        for (int c = 0; c < 3; c++)
            p[i].f[c] = fi[c];
    }
}

static void advance(particle_t *p, int n, double dt)
{
#pragma omp parallel for
    for (int i = 0; i < n; i++) {
        particle_t *q = &p[i];
        for (int c = 0; c < 3; c++) {
            q->v[c] += dt * q->f[c];
            q->x[c] += dt * q->v[c];
        }
    }
}

static double uniform(unsigned long *state)
{
    *state = *state * 6364136223846793005UL + 1442695040888963407UL;
    return (double)(*state >> 11) * (1.0 / 9007199254740992.0);
}

/* each particle walks with its own random stream until it is absorbed */
static void random_walk(particle_t *p, int n, double step)
{
#pragma omp parallel for schedule(guided)
    for (int i = 0; i < n; i++) {
        particle_t *q = &p[i];
        while (q->alive) {
            double u = uniform(&q->seed);
            for (int c = 0; c < 3; c++)
                q->x[c] += step * (u - 0.5);
            if (u < 0.2 || q->x[0] > 12.0)
                q->alive = 0;
        }
    }
}

int main(void)
{
    for (int i = 0; i < N; i++) {
        for (int c = 0; c < 3; c++) {
            atoms[i].x[c] = ((i * (c + 3)) % 97) * 0.1;
            atoms[i].v[c] = 0.0;
        }
        atoms[i].type = i % 2;
        atoms[i].seed = 12345u + (unsigned long)i;
        atoms[i].alive = 1;
        numneigh[i] = i % MAXN;
        for (int k = 0; k < MAXN; k++)
            neigh[i * MAXN + k] = (i + 7 * k + 1) % N;
    }
    for (int step = 0; step < 3; step++) {
        forces(atoms, N, numneigh, neigh, 4.0);
        advance(atoms, N, 0.01);
    }
    random_walk(atoms, N, 0.5);
    double s = 0.0;
    for (int i = 0; i < N; i++)
        s += atoms[i].x[0] + atoms[i].f[1] * (i % 3 + 1);
    printf("%.9f\n", s);
    return 0;
}

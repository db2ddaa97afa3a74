/* Members the schedule shows through: a particle's force made from its neighbours'
 * forces (the member the loop writes), an update of the previous particle's position,
 * two views of one block of a union, and random streams drawn from the first
 * particle's seed by all, or from a seed two particles share. With one thread as
 * written each is deterministic; another team reorders the reads and the writes. */
#include <stdio.h>

#define N 2000

typedef struct {
    double x[3];
    double f[3];
    unsigned long seed;
} particle_t;

typedef union {
    double pos[4];
    double mom[4];
} state_t;

static particle_t p[N];

static double uniform(unsigned long *state)
{
    *state = *state * 6364136223846793005UL + 1442695040888963407UL;
    return (double)(*state >> 11) * (1.0 / 9007199254740992.0);
}
static state_t st[N];

int main(void)
{
    for (int i = 0; i < N; i++)
        for (int c = 0; c < 3; c++) {
            p[i].x[c] = (i * (c + 2)) % 31;
            p[i].f[c] = c;
            p[i].seed = 99u + (unsigned long)i;
            st[i].pos[c] = i % 7;
        }
#pragma omp parallel for num_threads(1)
    for (int i = 0; i < N; i++)
        for (int c = 0; c < 3; c++)
            p[i].f[c] = 0.5 * (p[(i + 1) % N].f[c] + p[i].x[c]);
#pragma omp parallel for num_threads(1)
    for (int i = 1; i < N; i++)
        for (int c = 0; c < 3; c++)
            p[i - 1].x[c] += p[i].x[c];
#pragma omp parallel for num_threads(1)
    for (int i = 0; i < N; i++)
        for (int c = 0; c < 3; c++)
            st[i].mom[c] = st[(i + 3) % N].pos[c] + 1.0;
#pragma omp parallel for num_threads(1)
    for (int i = 0; i < N; i++)
        p[i].x[0] += uniform(&p[0].seed);
#pragma omp parallel for num_threads(1)
    for (int i = 0; i < N; i++)
        p[i].x[1] += uniform(&p[i / 2].seed);
    double s = 0.0;
    for (int i = 0; i < N; i++)
        s += p[i].f[0] + p[i].x[1] + st[i].mom[2] * (i % 3 + 1);
    printf("%.9f\n", s);
    return 0;
}

/* Energies summed under an OpenMP lock, as codes written before reductions on arrays
   do: the lock is the team's, the updates commute (up to the order of the additions).
   A later edit moved the lock into the loop body, one per iteration: it excludes
   nothing, and the sum races. That version runs only when asked (an argument). */
#include <stdio.h>
#include <omp.h>
#define N 200000

static double pos[N];

static double pair_energy(double r)
{
    double s = 1.0 / (1.0 + r * r);
    return s * s * s - s;
}

int main(int argc, char **argv)
{
    double energy = 0.0, energy2 = 0.0;
    long far = 0;
    omp_lock_t lock;
    int i;
    omp_init_lock(&lock);
    for (i = 0; i < N; i++)
        pos[i] = (i % 977) * 0.003;
#pragma omp parallel for schedule(static)
    for (i = 0; i < N; i++) {
        double e = pair_energy(pos[i]);
        omp_set_lock(&lock);
        energy += e;
        if (pos[i] > 2.0)
            far++;
        omp_unset_lock(&lock);
    }
#pragma omp parallel for if (argc > 1)
    for (i = 0; i < N; i++) {
        omp_lock_t mine;
        omp_init_lock(&mine);
        omp_set_lock(&mine);
        energy2 += pair_energy(pos[i]);
        omp_unset_lock(&mine);
        omp_destroy_lock(&mine);
    }
    omp_destroy_lock(&lock);
    printf("energy %.9e, %ld far, %.9e\n", energy, far, energy2);
    return 0;
}

/* A hand-partitioned time step, as mini-apps write one: each thread takes a cyclic
   share of the particles by its number and the team size, and the region's
   worksharing loops reuse the loop variable that share walks with (a private
   function-scope i in the first region, a new int k per loop in the second). */
#include <stdio.h>
#include <omp.h>

#define NP 60000
#define MAXT 64

static double x[NP], v[NP], f[NP];
static double ke_part[MAXT];

int main(void)
{
    int i, tid, nthreads;
    for (i = 0; i < NP; i++) {
        x[i] = (double)(i % 97) / 97.0;
        v[i] = (double)(i % 89) / 89.0 - 0.5;
    }
#pragma omp parallel private(i, tid, nthreads)
    {
        tid = omp_get_thread_num();
        nthreads = omp_get_num_threads();
#pragma omp for schedule(static)
        for (i = 0; i < NP; i++)
            f[i] = -0.5 * x[i];
        double ke = 0.0;
        for (i = tid; i < NP; i += nthreads)
            ke += 0.5 * v[i] * v[i];
        ke_part[tid] = ke;
#pragma omp for schedule(static)
        for (i = 0; i < NP; i++)
            x[i] += 0.01 * v[i];
    }
#pragma omp parallel
    {
        int t = omp_get_thread_num();
        int nt = omp_get_num_threads();
        for (int k = t; k < NP; k += nt)
            v[k] += 0.01 * f[k];
#pragma omp barrier
#pragma omp for
        for (int k = 0; k < NP; k++)
            f[k] = v[k] * x[k];
    }
    double ke = 0.0, sx = 0.0, sf = 0.0;
    for (int t = 0; t < MAXT; t++)
        ke += ke_part[t];
    for (i = 0; i < NP; i++) {
        sx += x[i];
        sf += f[i];
    }
    printf("ke %.6f x %.10f f %.10f\n", ke, sx, sf);
    return 0;
}

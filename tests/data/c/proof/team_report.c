/* A proxy app's compute regions that also record the team they ran with (as NAS EP
   does from a master block) for the final report: the schedule may vary, the
   regions' thread counts may not (the report would change). */
#include <omp.h>
#include <stdio.h>

#define NX 4096

static double u[NX], v[NX];
static int team_size, sweep_team;

static void note_team(void)
{
    sweep_team = omp_get_num_threads();
}

int main(void)
{
#pragma omp parallel
    {
#pragma omp for
        for (int i = 0; i < NX; i++)
            u[i] = 0.5 * i;
#pragma omp master
        team_size = omp_get_num_threads();
    }
#pragma omp parallel
    {
#pragma omp single
        note_team();
#pragma omp for
        for (int i = 0; i < NX; i++)
            v[i] = u[i] * u[i];
    }
    double total = 0.0;
    for (int i = 0; i < NX; i++)
        total += v[i];
    printf("checksum %.17g\n", total);
    printf("threads used: %d and %d\n", team_size, sweep_team);
    return 0;
}

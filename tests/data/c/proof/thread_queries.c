/* Thread identity under other names: GCC's builtin, the ancestor query, the team size. */
#include <stdio.h>
#include <omp.h>
#define N 1000
static int owner[N];
static int team[N];
static int anc[N];

int main(void)
{
#pragma omp parallel for schedule(static)
    for (int i = 0; i < N; i++)
        owner[i] = __builtin_omp_get_thread_num();
#pragma omp parallel for schedule(static)
    for (int i = 0; i < N; i++)
        team[i] = omp_get_team_size(1);
#pragma omp parallel for schedule(static)
    for (int i = 0; i < N; i++)
        anc[i] = omp_get_ancestor_thread_num(1);
    long s = 0;
    for (int i = 0; i < N; i++)
        s += (long)owner[i] * 7 + team[i] * 3 + anc[i];
    printf("%ld\n", s);
    return 0;
}

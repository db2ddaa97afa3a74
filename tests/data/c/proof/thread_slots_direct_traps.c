/* Slots indexed by the thread number that the schedule shows through: a slot set to
 * the last value its thread saw, one slot read alone, per-thread random seeds that
 * advance in the order each thread runs its iterations, a slot picked by the thread
 * number's parity, and fewer slots summed than the team has. Each is deterministic as
 * written (a static schedule and a fixed team). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N 40000

static double x[N];

int main(void)
{
    for (int i = 0; i < N; i++)
        x[i] = (i % 101) * 0.25;
    int nt = omp_get_max_threads();
    double *last = calloc(nt, sizeof(double)), *part = calloc(nt, sizeof(double));
    double *half = calloc(2, sizeof(double)), *some = calloc(nt, sizeof(double));
    unsigned *seed = malloc(nt * sizeof(unsigned));
    if (!last || !part || !half || !some || !seed)
        return 1;
    for (int t = 0; t < nt; t++)
        seed[t] = 17u + t;
#pragma omp parallel for schedule(static)
    for (int i = 0; i < N; i++)
        last[omp_get_thread_num()] = x[i];
#pragma omp parallel for schedule(static)
    for (int i = 0; i < N; i++)
        part[omp_get_thread_num()] += x[i];
    double noise = 0.0;
#pragma omp parallel for schedule(static) reduction(+:noise)
    for (int i = 0; i < N; i++)
        noise += rand_r(&seed[omp_get_thread_num()]) % 7;
#pragma omp parallel for schedule(static)
    for (int i = 0; i < N; i++)
        half[omp_get_thread_num() % 2] += 1.0;
#pragma omp parallel for schedule(static)
    for (int i = 0; i < N; i++)
        some[omp_get_thread_num()] += x[i];
    double s = 0.0, l = 0.0;
    for (int t = 0; t < nt; t++)
        l += last[t];
    for (int t = 0; t + 1 < nt; t++)
        s += some[t];
    printf("%.3f %.3f %.1f %.1f %.3f\n", l, part[0], noise, half[0], s);
    return 0;
}

/* Extremes under a test that the schedule shows through: a test that reads the extreme
 * itself (only values near the running maximum count), a test after the comparison
 * that counts how often it is asked (its count depends on what each thread saw), and an
 * extreme kept with a second value that is no tie-break. */
#include <stdio.h>

#define N 30000

static double level[N];

int main(void)
{
    for (int i = 0; i < N; i++)
        level[i] = (double)((i * 7919) % 1000) * 0.01;
    double top = 0.0;
#pragma omp parallel for reduction(max:top) schedule(static)
    for (int i = 0; i < N; i++)
        if (level[i] < top + 1.0 && level[i] > top)
            top = level[i];
    double low = 1.0e300;
    long asked = 0;
#pragma omp parallel for reduction(min:low) reduction(+:asked) schedule(static)
    for (int i = 0; i < N; i++)
        if (level[i] < low && asked++ >= 0)
            low = level[i];
    double best = -1.0;
    int best_at = -1;
#pragma omp parallel
    {
        double mine = -1.0;
        int at = -1;
#pragma omp for schedule(static)
        for (int i = 0; i < N; i++)
            if (i % 2 == 0 && level[i] >= mine) {
                mine = level[i];
                at = i;
            }
#pragma omp critical
        if (mine > best) {
            best = mine;
            best_at = at;
        }
    }
    printf("%.3f %.3f %ld %.3f %d\n", top, low, asked, best, best_at);
    return 0;
}

/* Extremes taken over the entries that pass a test, as search and statistics codes
 * write them: the first index past a threshold (a min reduction of the index), the
 * largest value among the cells a mask keeps, the lowest cost among the feasible moves,
 * and the nearest valid candidate with its index, lowest index winning ties, merged
 * under critical. The test reads none of the extremes, so any schedule and any team
 * find the same ones. */
#include <math.h>
#include <stdio.h>

#define N 30000

static double level[N], cost[N], dist[N];
static unsigned char mask[N], valid[N];

int main(void)
{
    for (int i = 0; i < N; i++) {
        level[i] = (double)((i * 7919) % 1000) * 0.01;
        cost[i] = (double)((i * 104729L) % 997) - 400.0;
        dist[i] = fabs((double)((i * 31) % 977) - 488.0);
        mask[i] = (i % 3) != 0;
        valid[i] = (i % 5) == 2;
    }
    const double threshold = 9.5;
    int first = N;
#pragma omp parallel for reduction(min:first)
    for (int i = 0; i < N; i++)
        if (level[i] > threshold && i < first)
            first = i;
    double top = -1.0e300;
#pragma omp parallel for reduction(max:top) schedule(static)
    for (int i = 0; i < N; i++)
        if (mask[i] && level[i] * 2.0 > top)
            top = level[i] * 2.0;
    double cheapest = 1.0e300;
#pragma omp parallel for reduction(min:cheapest) schedule(dynamic, 64)
    for (int i = 0; i < N; i++)
        if (cost[i] < cheapest && cost[i] > -100.0)
            cheapest = cost[i];
    double nearest = 1.0e300;
    int nearest_at = -1;
#pragma omp parallel
    {
        double my_near = 1.0e300;
        int my_at = -1;
#pragma omp for
        for (int i = 0; i < N; i++) {
            if (valid[i] && (dist[i] < my_near || (dist[i] == my_near && i < my_at))) {
                my_near = dist[i];
                my_at = i;
            }
        }
#pragma omp critical
        if (my_near < nearest || (my_near == nearest && my_at < nearest_at)) {
            nearest = my_near;
            nearest_at = my_at;
        }
    }
    printf("%d %.3f %.3f %.3f %d\n", first, top, cheapest, nearest, nearest_at);
    return 0;
}

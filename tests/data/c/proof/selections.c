/* Per-thread candidates merged under critical, as search and clustering codes write
 * them: the largest residual and its row with the lowest row winning ties, the nearest
 * centre and its index with the highest index winning ties, a thread's own maximum
 * merged by fmax, and an integer maximum merged by an if-test. Any schedule and any
 * team select the same candidate. */
#include <math.h>
#include <stdio.h>

#define N 20000

static double r[N], d[N];
static int load[N];

int main(void)
{
    for (int i = 0; i < N; i++) {
        r[i] = (double)((i * 7919) % 1000) * 0.5 - 250.0;
        d[i] = fabs((double)((i * 104729) % 997) - 500.0);
        load[i] = (i * 31) % 977;
    }
    double worst = -1.0e300, nearest = 1.0e300, peak = -1.0e300;
    int worst_row = -1, nearest_at = -1, busiest = -1;
#pragma omp parallel
    {
        double my_worst = -1.0e300;
        int my_row = -1;
#pragma omp for
        for (int i = 0; i < N; i++) {
            if (r[i] > my_worst || (r[i] == my_worst && i < my_row)) {
                my_worst = r[i];
                my_row = i;
            }
        }
#pragma omp critical
        {
            if (my_worst > worst || (my_worst == worst && my_row < worst_row)) {
                worst = my_worst;
                worst_row = my_row;
            }
        }
    }
#pragma omp parallel
    {
        double my_near = 1.0e300;
        int my_at = -1;
#pragma omp for schedule(static)
        for (int i = 0; i < N; i++) {
            if (d[i] < my_near || (d[i] == my_near && i > my_at)) {
                my_at = i;
                my_near = d[i];
            }
        }
#pragma omp critical
        if (my_near < nearest || (my_near == nearest && my_at > nearest_at)) {
            nearest = my_near;
            nearest_at = my_at;
        }
    }
#pragma omp parallel
    {
        double mine = -1.0e300;
        int most = -1;
#pragma omp for
        for (int i = 0; i < N; i++) {
            mine = fmax(mine, r[i] * d[i]);
            if (load[i] > most)
                most = load[i];
        }
#pragma omp critical
        {
            peak = fmax(peak, mine);
            if (most > busiest)
                busiest = most;
        }
    }
    printf("%.3f %d %.3f %d %.3f %d\n", worst, worst_row, nearest, nearest_at, peak, busiest);
    return 0;
}

/* A sweep timed by a helper of another file (timer.c), called under master between a
   nowait loop and the loop that reads its rows. Alone, the helper may touch anything
   and run code of its own: the region is kept. With timer.c given, it touches neither
   grid: the two loops keep their schedules for the same static mapping, nothing more. */
#include <stdio.h>
#define N 100000

double wall_time(void);

static double a[N], b[N];

int main(void)
{
    int i;
    double t0 = 0.0;
    for (i = 0; i < N; i++)
        a[i] = i * 0.5;
#pragma omp parallel
    {
#pragma omp for nowait
        for (i = 0; i < N; i++)
            b[i] = 2.0 * a[i];
#pragma omp master
        t0 = wall_time();
#pragma omp for
        for (i = 0; i < N; i++)
            a[i] = b[i] + 1.0;
    }
    printf("%.3f %d\n", a[N - 1], t0 >= 0.0);
    return 0;
}

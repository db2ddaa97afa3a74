/* A sweep timed through a wrapper of a clock in another file (timer.c), called under
   master between a nowait loop and the loop that reads its rows. Alone, the clock may
   touch anything and run code of its own: the region is kept. With timer.c given, it
   touches neither grid: the two loops keep their schedules for the same static
   mapping, nothing more. */
#include <stdio.h>
#define N 100000

double wall_time(void);

static double a[N], b[N], elapsed[4];

static void timer_start(int which)
{
    elapsed[which] = wall_time();
}

int main(void)
{
    int i;
    for (i = 0; i < N; i++)
        a[i] = i * 0.5;
#pragma omp parallel
    {
#pragma omp for nowait
        for (i = 0; i < N; i++)
            b[i] = 2.0 * a[i];
#pragma omp master
        timer_start(0);
#pragma omp for
        for (i = 0; i < N; i++)
            a[i] = b[i] + 1.0;
    }
    printf("%.3f %d\n", a[N - 1], elapsed[0] >= 0.0);
    return 0;
}

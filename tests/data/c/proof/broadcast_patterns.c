/* One thread reads a setting and hands it to the team: a single with copyprivate (every
   thread's copy gets the value), a master storing into a shared variable the team reads
   after the barrier, and thread 0 doing the same under a test of its number. Each is one
   value for every thread: the loops' schedules are free. */
#include <stdio.h>
#include <omp.h>

#define N 6000

static double a[N], b[N];
static double shared_scale = 1.0;

static double read_setting(void)
{
    return 0.75;
}

int main(void)
{
    for (int i = 0; i < N; i++)
        b[i] = i % 23;
    double s = 0.0;
#pragma omp parallel
    {
        double w = 1.0;
#pragma omp single copyprivate(w)
        w = read_setting();
#pragma omp for
        for (int i = 0; i < N; i++)
            a[i] = w * b[i] + 1.0;
    }
    for (int i = 0; i < N; i++)
        s += a[i] * (i % 7 + 1);
#pragma omp parallel
    {
#pragma omp master
        shared_scale = 0.5;
#pragma omp barrier
#pragma omp for
        for (int i = 0; i < N; i++)
            a[i] = shared_scale * b[i];
    }
    for (int i = 0; i < N; i++)
        s += a[i] * (i % 5 + 1);
    double offset = 0.0;
#pragma omp parallel
    {
        if (omp_get_thread_num() == 0)
            offset = read_setting() * 4.0;
#pragma omp barrier
#pragma omp for
        for (int i = 0; i < N; i++)
            a[i] = b[i] + offset;
    }
    for (int i = 0; i < N; i++)
        s += a[i] * (i % 3 + 1);
    printf("%.2f\n", s);
    return 0;
}

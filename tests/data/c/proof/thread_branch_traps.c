/* Values each thread sets by testing its own number, with no thread number flowing
   into them: a weight the first thread halves (its share holds the boundary), a helper
   returning another constant on thread 0, an offset advanced once per lower thread, and
   a member of an options struct. Which thread runs an iteration decides what it writes: another schedule prints
   another checksum. */
#include <stdio.h>
#include <omp.h>

#define N 4000

static double a[N], b[N];

struct sweep_opts {
    double relax;
    int halo;
};

static int lanes(void)
{
    if (omp_get_thread_num() == 0)
        return 2;
    return 1;
}

int main(void)
{
    for (int i = 0; i < N; i++)
        b[i] = i % 17;
#pragma omp parallel
    {
        double w = 1.0;
        if (omp_get_thread_num() == 0)
            w = 0.5;
#pragma omp for
        for (int i = 0; i < N; i++)
            a[i] = w * b[i];
    }
    double s = 0.0;
    for (int i = 0; i < N; i++)
        s += a[i] * (i % 7 + 1);
#pragma omp parallel
    {
        int width = lanes();
#pragma omp for
        for (int i = 0; i < N; i++)
            a[i] = b[i] * width;
    }
    for (int i = 0; i < N; i++)
        s += a[i] * (i % 5 + 1);
#pragma omp parallel
    {
        int shift = 0;
        for (int k = 0; k < omp_get_thread_num(); k++)
            shift += 2;
#pragma omp for
        for (int i = 0; i < N; i++)
            a[i] = b[i] + shift;
    }
    for (int i = 0; i < N; i++)
        s += a[i] * (i % 3 + 1);
#pragma omp parallel
    {
        struct sweep_opts opts = {1.0, 1};
        if (omp_get_thread_num() == 0)
            opts.relax = 0.8;
#pragma omp for
        for (int i = 0; i < N; i++)
            a[i] = opts.relax * b[i] + opts.halo;
    }
    for (int i = 0; i < N; i++)
        s += a[i] * (i % 11 + 1);
    printf("%.1f\n", s);
    return 0;
}

/* Each thread's own grid pointers, exchanged unequally often. A relaxation in one
   parallel region whose pointers are the threads' own copies (declared in the region,
   or firstprivate); the exchange runs on the master alone, or on thread 0 alone, so
   thread 0 writes the grid the others read: which thread runs an iteration decides
   which grid it writes, and another schedule prints another sum. */
#include <stdio.h>
#include <omp.h>

#define N 4000

static double u[N], v[N];

static double checksum(void)
{
    double s = 0.0;
    for (int i = 0; i < N; i++)
        s += u[i] * (i % 3 + 1) + v[i] * (i % 7);
    return s;
}

int main(void)
{
    for (int i = 0; i < N; i++) {
        u[i] = i % 17;
        v[i] = i % 5;
    }
#pragma omp parallel
    {
        double *src = u;
        double *dst = v;
#pragma omp master
        {
            double *tmp = src;
            src = dst;
            dst = tmp;
        }
#pragma omp for
        for (int i = 0; i < N; i++)
            dst[i] = 0.5 * src[i] + 1.0;
    }
    printf("%.1f\n", checksum());

    double *old = u, *cur = v;
#pragma omp parallel firstprivate(old, cur)
    {
        if (omp_get_thread_num() == 0) {
            double *tmp = old;
            old = cur;
            cur = tmp;
        }
#pragma omp for
        for (int i = 0; i < N; i++)
            cur[i] = 0.25 * old[i] + 2.0;
    }
    printf("%.1f\n", checksum());
    return 0;
}

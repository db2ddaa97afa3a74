/* Values one thread sets alone in its own copy: the master halves its weight (its
   share holds the boundary), thread 1 alone (masked) scales its own factor, and a
   worker called by every thread of the team lets its master change the step of its
   own local before the orphaned loop; the master points its own copy of the source at
   another array, directly and in a struct. Which thread runs an iteration decides what
   it writes: another schedule prints another checksum. */
#include <stdio.h>

#define N 4000

static double a[N], b[N], c[N];

struct view {
    const double *data;
    int n;
};

static void relax(double *out, const double *in)
{
    double step = 1.0;
#pragma omp master
    step = 0.25;
#pragma omp for
    for (int i = 0; i < N; i++)
        out[i] = in[i] + step;
}

int main(void)
{
    for (int i = 0; i < N; i++) {
        b[i] = i % 17;
        c[i] = i % 4;
    }
    double s = 0.0;
#pragma omp parallel
    {
        double w = 1.0;
#pragma omp master
        w = 0.5;
#pragma omp for
        for (int i = 0; i < N; i++)
            a[i] = w * b[i];
    }
    for (int i = 0; i < N; i++)
        s += a[i] * (i % 7 + 1);
#pragma omp parallel
    {
        int factor = 2;
#pragma omp masked filter(1)
        {
            factor = 3;
        }
#pragma omp for
        for (int i = 0; i < N; i++)
            a[i] = b[i] * factor;
    }
    for (int i = 0; i < N; i++)
        s += a[i] * (i % 5 + 1);
#pragma omp parallel
    relax(a, b);
    for (int i = 0; i < N; i++)
        s += a[i] * (i % 3 + 1);
#pragma omp parallel
    {
        const double *src = b;
#pragma omp master
        src = c;
#pragma omp for
        for (int i = 0; i < N; i++)
            a[i] = 2.0 * src[i];
    }
    for (int i = 0; i < N; i++)
        s += a[i] * (i % 11 + 1);
#pragma omp parallel
    {
        struct view in = {b, N};
#pragma omp master
        in.data = c;
#pragma omp for
        for (int i = 0; i < N; i++)
            a[i] = in.data[i] + 1.0;
    }
    for (int i = 0; i < N; i++)
        s += a[i] * (i % 13 + 1);
    printf("%.1f\n", s);
    return 0;
}

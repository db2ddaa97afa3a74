/* Loops that do depend on a thread's number, in regions whose other code reuses
   their names: a use before a later declaration of the same name in its block, a
   value a loop-header declaration carried out, and a cyclic update each thread
   makes with no barrier before the worksharing loop that reads it. */
#include <stdio.h>
#include <omp.h>

#define N 4000

static int owner_b[N], owner_c[N];
static double v[N], w[N];

int main(void)
{
    for (int i = 0; i < N; i++)
        w[i] = (double)(i % 17);
#pragma omp parallel
    {
        int t = omp_get_thread_num();
        {
#pragma omp for
            for (int i = 0; i < N; i++)
                owner_b[i] = t + 1;
            int t = 7;
            (void)t;
        }
        int first = -1;
        for (int k = t; k < t + 1; k++)
            first = k;
#pragma omp for
        for (int i = 0; i < N; i++)
            owner_c[i] = first + 2;
    }
#pragma omp parallel
    {
        int t = omp_get_thread_num();
        int nt = omp_get_num_threads();
        for (int k = t; k < N; k += nt)
            v[k] = 0.5 * w[k];
#pragma omp for
        for (int k = 0; k < N; k++)
            w[k] = v[k] + 1.0;
    }
    long sb = 0, sc = 0;
    double sw = 0.0;
    for (int i = 0; i < N; i++) {
        sb += (long)owner_b[i] * (i % 11);
        sc += (long)owner_c[i] * (i % 7);
        sw += w[i];
    }
    printf("%ld %ld %.3f\n", sb, sc, sw);
    return 0;
}

/* A hand-written reduction: private partial sums, then a critical update of
   the total. Any schedule and any team add the same terms (regrouped: the last
   digits may change, which is said). The second region also counts, in its
   critical section, the threads that took part and prints the count: its
   schedule may change, its thread count may not. */
#include <stdio.h>
#include <math.h>

#define N 200000
static double x[N];

static double weight(double v)
{
    return exp(-v * v) + 1.0 / (1.0 + fabs(v));
}

int main(void)
{
    double total = 0.0;
    for (int i = 0; i < N; i++)
        x[i] = (i % 1000) / 250.0 - 2.0;
#pragma omp parallel
    {
        double local = 0.0;
#pragma omp for nowait
        for (int i = 0; i < N; i++)
            local += weight(x[i]);
#pragma omp critical
        total += local;
    }
    double again = 0.0;
    int workers = 0;
#pragma omp parallel
    {
        double local = 0.0;
#pragma omp for nowait
        for (int i = 0; i < N; i++)
            local += x[i] * x[i];
#pragma omp critical
        {
            again += local;
            workers++;
        }
    }
    printf("total = %.8e, %.8e from %d threads\n", total, again, workers);
    return 0;
}

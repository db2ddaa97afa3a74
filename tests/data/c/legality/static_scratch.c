/* Normalising 2-D vectors, with the scratch variable declared static inside the parallel
   region (to keep it "allocated once"): a static local is one object for the whole team,
   so every thread writes and reads the same norm (a race, so that pass runs only when
   asked, with an argument). The automatic one in the second region is each thread's
   own. */
#include <math.h>
#include <stdio.h>
#define N 100000

static double x[N], y[N], u[N], v[N];

int main(int argc, char **argv)
{
    int i;
    for (i = 0; i < N; i++) {
        x[i] = u[i] = 1.0 + i % 7;
        y[i] = v[i] = 2.0 + i % 5;
    }
#pragma omp parallel if (argc > 1 && argv[1][0] == 'r')
    {
        static double norm;
#pragma omp for
        for (i = 0; i < N; i++) {
            norm = sqrt(x[i] * x[i] + y[i] * y[i]);
            x[i] /= norm;
            y[i] /= norm;
        }
    }
#pragma omp parallel
    {
        double norm;
#pragma omp for
        for (i = 0; i < N; i++) {
            norm = sqrt(u[i] * u[i] + v[i] * v[i]);
            u[i] /= norm;
            v[i] /= norm;
        }
    }
    double s = 0.0;
    for (i = 0; i < N; i++)
        s += (x[i] + 2.0 * y[i]) * (i % 3 + 1) + u[i] - v[i];
    printf("%.10f\n", s);
    return 0;
}

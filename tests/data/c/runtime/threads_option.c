/* A benchmark that takes its thread count from its options, as XSBench's -t, Rodinia
   lud's omp_num_threads and kmeans' -n do: omp_set_num_threads(nthreads) before the
   work, so the loops run with that many threads whatever the machine has. A time loop
   of Jacobi sweeps inside one region (its omp for runs with the region's team), then a
   combined parallel for that counts the result, in parallel only for a long vector. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int nthreads;
    long n;
    int steps;
} Inputs;

static Inputs read_options(int argc, char **argv)
{
    Inputs in = {1, 20000, 4};
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "-t") == 0)
            in.nthreads = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "-n") == 0)
            in.n = atol(argv[i + 1]);
        else if (strcmp(argv[i], "-s") == 0)
            in.steps = atoi(argv[i + 1]);
    }
    return in;
}

static void relax(double *u, double *v, long n, int steps)
{
#pragma omp parallel
    {
        for (int s = 0; s < steps; s++) {
#pragma omp for
            for (long i = 1; i < n - 1; i++)
                v[i] = 0.25 * u[i - 1] + 0.5 * u[i] + 0.25 * u[i + 1];
#pragma omp for
            for (long i = 1; i < n - 1; i++)
                u[i] = v[i];
        }
    }
}

int main(int argc, char **argv)
{
    Inputs in = read_options(argc, argv);
    omp_set_num_threads(in.nthreads);
    double *u = malloc(in.n * sizeof(double)), *v = malloc(in.n * sizeof(double));
    for (long i = 0; i < in.n; i++) {
        u[i] = (double)(i % 17) - 8.0;
        v[i] = 0.0;
    }
    relax(u, v, in.n, in.steps);
    long changed = 0;
#pragma omp parallel for if (in.n > 1000) reduction(+ : changed)
    for (long i = 0; i < in.n; i++)
        changed += u[i] > 0.0;
    printf("threads %d: %ld positive of %ld\n", in.nthreads, changed, in.n);
    free(u);
    free(v);
    return 0;
}

/* Arrays returned through out-parameters, as solvers and input readers return a
 * second result: every kernel below is independent when each pointer holds its own
 * block. */
#include <stdio.h>
#include <stdlib.h>

static int alloc_vector(double **out, int n)
{
    *out = malloc((size_t)n * sizeof(double));
    if (*out == NULL)
        return -1;
    for (int i = 0; i < n; i++)
        (*out)[i] = 0.0;
    return 0;
}

static int alloc_aligned(double **out, int n)
{
    if (!out)
        return -1;
    return posix_memalign((void **)out, 64, (size_t)n * sizeof(double));
}

static void make_problem(int n, double **rhs, double **diag, double **sol)
{
    alloc_vector(rhs, n);
    alloc_aligned(diag, n);
    sol[0] = calloc((size_t)n, sizeof(double));
    for (int i = 0; i < n; i++) {
        (*rhs)[i] = 1.0 + (i % 7) * 0.5;
        (*diag)[i] = 4.0 + (i % 3);
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 5000;
    int sweeps = argc > 2 ? atoi(argv[2]) : 20;
    double *rhs, *diag, *sol, *res;
    make_problem(n, &rhs, &diag, &sol);
    if (alloc_vector(&res, n))
        return 1;
    for (int s = 0; s < sweeps; s++) {
#pragma omp parallel for
        for (int i = 0; i < n; i++)
            res[i] = rhs[i] - diag[i] * sol[i];
#pragma omp parallel for
        for (int i = 0; i < n; i++)
            sol[i] += 0.5 * res[i] / diag[i];
    }
    double norm = 0.0;
    for (int i = 0; i < n; i++)
        norm += res[i] * res[i];
    printf("%.10e %.10f\n", norm, sol[n / 2]);
    free(rhs);
    free(diag);
    free(sol);
    free(res);
    return 0;
}

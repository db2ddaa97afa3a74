/* Kernels that take their work as a function pointer, as solver and image libraries
 * do: a map over a vector, a right-hand side held in a model's table of operations, and
 * rows sorted by a comparison chosen at run time. Every function whose address the
 * program takes is pure in the iteration's elements, so each loop varies. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define N 4096

typedef double (*unary_fn)(double);

typedef struct {
    const char *name;
    void (*rhs)(const double *y, double *dy, double t, int i);
} model_t;

static double halve(double x) { return 0.5 * x; }

static void decay(const double *y, double *dy, double t, int i) { dy[i] = -0.3 * y[i] * t; }

static void logistic(const double *y, double *dy, double t, int i)
{
    dy[i] = y[i] * (1.0 - y[i]) + 0.01 * t;
}

static int ascending(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int descending(const void *a, const void *b) { return ascending(b, a); }

static const model_t models[] = {{"decay", decay}, {"logistic", logistic}};

void map(double *v, int n, unary_fn f)
{
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n; i++)
        v[i] = f(v[i]);
}

void euler_step(const model_t *m, double *y, double *dy, int n, double t, double h)
{
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        m->rhs(y, dy, t, i);
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        y[i] += h * dy[i];
}

void sort_rows(double *m, int rows, int cols, int reverse)
{
#pragma omp parallel for schedule(dynamic)
    for (int r = 0; r < rows; r++)
        qsort(m + (size_t)r * cols, cols, sizeof(double), reverse ? descending : ascending);
}

int main(int argc, char **argv)
{
    int n = N;
    int which = argc > 1 ? atoi(argv[1]) % 2 : 1;
    double *y = malloc(sizeof(double) * n), *dy = malloc(sizeof(double) * n);
    double *grid = malloc(sizeof(double) * n);
    if (!y || !dy || !grid)
        return 1;
    for (int i = 0; i < n; i++) {
        y[i] = (i % 97) / 97.0;
        grid[i] = (i * 7919) % 1009;
    }
    map(grid, n, sqrt);
    map(grid, n, halve);
    for (int s = 0; s < 10; s++)
        euler_step(&models[which], y, dy, n, s * 0.1, 0.05);
    sort_rows(grid, n / 64, 64, which);
    double sum = 0.0;
    for (int i = 0; i < n; i++)
        sum += y[i] * (i % 5 + 1) + grid[i] * (i % 3 + 1);
    printf("%s %.9f %.9f %.9f\n", models[which].name, sum, grid[0], grid[n - 1]);
    return 0;
}

/* Function pointers that may hold a function the schedule shows through: a filter
 * whose running state lives in a per-thread copy, a table of stages one of which is that
 * filter, and a comparison that counts its calls per thread (the count the master's copy
 * holds is printed). Each is deterministic as written (static schedule, a fixed team)
 * and prints another result under another schedule or team. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef double (*unary_fn)(double);

static double level;
#pragma omp threadprivate(level)
static long compared;
#pragma omp threadprivate(compared)

static double smooth(double x)
{
    level = 0.5 * (level + x);  /* the thread's running average */
    return level;
}

static double square(double x) { return x * x; }

typedef struct {
    double (*op)(double);
} stage_t;

static const stage_t stages[] = {{square}, {smooth}};

static int counted(const void *a, const void *b)
{
    compared++;
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int plain(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void filter(double *v, int n, unary_fn f)
{
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n; i++)
        v[i] = f(v[i]);
}

void run_stage(const stage_t *s, double *v, int n)
{
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n; i++)
        v[i] = s->op(v[i]) + 1.0;
}

double sort_and_count(double *m, int rows, int cols, int count)
{
    double out = 0.0;
#pragma omp parallel for schedule(static) reduction(+:out)
    for (int r = 0; r < rows; r++) {
        qsort(m + (size_t)r * cols, cols, sizeof(double), count ? counted : plain);
        out += m[(size_t)r * cols];
    }
    return out + (double)compared;  /* the comparisons the master thread made */
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 4096;
    double *v = malloc(sizeof(double) * n), *w = malloc(sizeof(double) * n);
    if (!v || !w)
        return 1;
    for (int i = 0; i < n; i++)
        v[i] = w[i] = (i * 7919) % 1009;
    filter(v, n, argc > 2 ? square : smooth);
    run_stage(&stages[argc > 3 ? 0 : 1], w, n);
    double c = sort_and_count(w, n / 64, 64, argc < 4);
    double sum = 0.0;
    for (int i = 0; i < n; i++)
        sum += v[i] * (i % 5 + 1) + w[i] * (i % 3 + 1);
    printf("%.9f %.9f\n", sum, c);
    return 0;
}

/* Loop shapes a front end must get right: inclusive and decrementing
 * bounds, strides, triangular and collapsed nests, symbolic bounds, and
 * loops that must not be tuned. Written for the autotune tests. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#ifndef N
#define N 1000
#endif
#ifndef M
#define M 37
#endif

static double a[N + 1], b[N + 1], c[N][M];
static int owner[N];
static double ordered_sum, tp_total;
static double tp_acc;
#pragma omp threadprivate(tp_acc)

/* inclusive upper bound: i = 1 .. N */
static void inclusive_bound(void)
{
    int i;
#pragma omp parallel for
    for (i = 1; i <= N; i++)
        a[i] = 0.5 * i;
}

/* decrementing with >= */
static void count_down(void)
{
    int i;
#pragma omp parallel for
    for (i = N - 1; i >= 0; i--)
        b[i] = a[i] + 1.0;
}

/* stride 3 with += */
static void stride_three(void)
{
    int i;
#pragma omp parallel for
    for (i = 0; i < N; i += 3)
        a[i] = a[i] + b[i];
}

/* stride 2 written as i = i + 2 */
static void stride_two(void)
{
    int i;
#pragma omp parallel for
    for (i = 1; i < N; i = i + 2)
        b[i] = 2.0 * b[i];
}

/* decrementing by 2 with > */
static void count_down_by_two(void)
{
    int i;
#pragma omp parallel for
    for (i = N; i > 0; i -= 2)
        a[i] = a[i] - 0.25;
}

/* triangular nest, loop variables declared in the for */
static void lower_triangle(void)
{
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        for (int j = 0; j <= i; j++)
            c[i][j % M] += 1.0e-3 * b[j];
}

/* rectangular nest collapsed into one iteration space */
static void collapsed(void)
{
    int i, j;
#pragma omp parallel for collapse(2)
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++)
            c[i][j] = c[i][j] + (double)(i + j);
}

/* bound is a parameter: unknown at compile time */
static void param_bound(int n)
{
    int i;
#pragma omp parallel for
    for (i = 0; i < n; i++)
        b[i] = b[i] * 0.5;
}

/* body asks which thread runs it: result depends on the schedule */
static void who_runs(void)
{
    int i;
#pragma omp parallel for
    for (i = 0; i < N; i++)
        owner[i] = omp_get_thread_num();
}

/* ordered: the ordered block runs in iteration order */
static void in_order(void)
{
    int i;
#pragma omp parallel for ordered
    for (i = 0; i < N; i++) {
        double v = a[i] * 2.0;
#pragma omp ordered
        ordered_sum = ordered_sum * 0.5 + v;
    }
}

/* per-thread accumulator in a threadprivate variable */
static void per_thread(void)
{
    int i;
#pragma omp parallel
    {
        tp_acc = 0.0;
#pragma omp for
        for (i = 0; i < N; i++)
            tp_acc += a[i];
#pragma omp atomic
        tp_total += tp_acc;
    }
}

/* directive continued over several lines */
static void continued_pragma(void)
{
    int i, j;
#pragma omp parallel for \
        schedule(dynamic, 4) \
        private(j)
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++)
            c[i][j] = 0.5 * c[i][j] + a[i];
}

/* fixed thread count written by the user */
static void two_threads(void)
{
    int i;
#pragma omp parallel for num_threads(2)
    for (i = 0; i < N; i++)
        a[i] += b[i];
}

/* parallel only when the problem is large enough */
static void conditional(void)
{
    int i;
#pragma omp parallel for if(N > 100)
    for (i = 0; i < N; i++)
        b[i] = b[i] - a[i] * 1.0e-3;
}

int main(void)
{
    double sum = 0.0;
    int i, j;
    inclusive_bound();
    count_down();
    stride_three();
    stride_two();
    count_down_by_two();
    lower_triangle();
    collapsed();
    param_bound(N / 2);
    who_runs();
    in_order();
    per_thread();
    continued_pragma();
    two_threads();
    conditional();
    for (i = 0; i < N; i++) {
        sum += a[i] + b[i];
        for (j = 0; j < M; j++)
            sum += c[i][j] * 1.0e-3;
    }
    sum += ordered_sum + 1.0e-3 * tp_total;
    printf("checksum: %.12e\n", sum);
    return 0;
}

/* Per-thread workspaces as solvers and histogram codes allocate them: each thread of
 * the region mallocs its own buffer once, before the worksharing loop, uses it in every
 * iteration and frees it at the end (an orphaned loop's function the same). Every loop
 * varies. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 3000
#define W 24
#define BINS 16

static double a[N][W], out[N];
static long hist[BINS];

/* a helper that fills the caller's workspace and reads it back */
static double row_norm(const double *row, double *work, int n)
{
    for (int k = 0; k < n; k++)
        work[k] = row[k] * row[k];
    double s = 0.0;
    for (int k = 0; k < n; k++)
        s += work[k];
    return s;
}

static void smooth(void)
{
#pragma omp parallel
    {
        double *work = (double *)malloc(sizeof(double) * W);
        if (work == NULL) {
            fprintf(stderr, "out of memory\n");
            exit(1);
        }
#pragma omp for schedule(static)
        for (int i = 0; i < N; i++) {
            for (int k = 0; k < W; k++)
                work[k] = a[i][k] * 0.5;
            for (int k = 1; k < W - 1; k++)
                out[i] += work[k - 1] + work[k] + work[k + 1];
        }
        free(work);
    }
}

static void norms(void)
{
    double *work;
#pragma omp parallel private(work)
    {
        work = malloc(W * sizeof *work);
#pragma omp for
        for (int i = 0; i < N; i++)
            out[i] += row_norm(a[i], work, W);
        free(work);
    }
}

/* each thread counts into its own zeroed bins, merged under critical */
static void histogram(void)
{
#pragma omp parallel
    {
        long *mine = calloc(BINS, sizeof(long));
#pragma omp for
        for (int i = 0; i < N; i++)
            mine[(int)out[i] % BINS]++;
#pragma omp critical
        for (int b = 0; b < BINS; b++)
            hist[b] += mine[b];
        free(mine);
    }
}

/* an orphaned loop: every thread of the caller's region runs the function, and the
 * workspace it allocates is each thread's own */
static void prefix_rows(void)
{
    double *tmp = malloc(sizeof(double) * W);
#pragma omp for
    for (int i = 0; i < N; i++) {
        memcpy(tmp, a[i], sizeof(double) * W);
        for (int k = 1; k < W; k++)
            tmp[k] += tmp[k - 1];
        out[i] += tmp[W - 1];
    }
    free(tmp);
}

int main(void)
{
    for (int i = 0; i < N; i++)
        for (int k = 0; k < W; k++)
            a[i][k] = (i * 7 + k * 3) % 11;
    memset(out, 0, sizeof out);
    smooth();
    norms();
    histogram();
#pragma omp parallel
    prefix_rows();
    double s = 0.0;
    for (int i = 0; i < N; i++)
        s += out[i];
    long h = 0;
    for (int b = 0; b < BINS; b++)
        h += hist[b] * (b + 1);
    printf("%.3f %ld\n", s, h);
    return 0;
}

/* Helpers that look like allocators and hand out one block again. */
#include <stdio.h>
#include <stdlib.h>

#define N 1500
#define W 16

static double in[N * W], out[N];
static double *spare;

static void reuse(double **slot)
{
    *slot = spare;
}

/* a fresh block, or the spare one through the pointer's address */
static double *scratch(size_t n)
{
    double *p = malloc(n * sizeof *p);
    if (spare != NULL) {
        free(p);
        reuse(&p);
    }
    return p;
}

/* posix_memalign's block, or the spare one */
static double *scratch_aligned(size_t n)
{
    void *p = NULL;
    if (spare != NULL)
        return spare;
    if (posix_memalign(&p, 64, n * sizeof(double)) != 0)
        return NULL;
    return p;
}

static void smooth(void)
{
    int i;
#pragma omp parallel for
    for (i = 0; i < N; i++) {
        double *tmp = scratch(W);
        double acc = 0.0;
        if (i % 3 == 0)
            for (int k = 0; k < W; k++)
                tmp[k] = in[i * W + k];
        for (int k = 0; k < W; k++)
            acc += tmp[k];
        out[i] = acc;
    }
}

static void smooth_aligned(void)
{
    int i;
#pragma omp parallel for
    for (i = 0; i < N; i++) {
        double *tmp = scratch_aligned(W);
        double acc = 0.0;
        if (i % 4 == 1)
            for (int k = 0; k < W; k++)
                tmp[k] = in[i * W + k] * 0.5;
        for (int k = 0; k < W; k++)
            acc += tmp[k] * (k + 1);
        out[i] += acc;
    }
}

int main(void)
{
    int i;
    double t = 0.0;
    spare = calloc(W, sizeof *spare);
    for (i = 0; i < N * W; i++)
        in[i] = (i % 41) * 0.5;
    smooth();
    smooth_aligned();
    for (i = 0; i < N; i++)
        t += out[i] * (i % 5 + 1);
    printf("%.4f\n", t);
    return 0;
}

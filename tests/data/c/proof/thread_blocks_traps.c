/* Per-thread blocks that are not the thread's own: one thread's block handed to all
 * (copyprivate), a workspace a helper keeps in a static pointer, a block whose address
 * every thread publishes, a block each thread reads before the iteration writes it,
 * and a block's address kept in the output. Each loop is kept as written. */
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define N 2000
#define W 8

static double in[N][W], out[N];
static long where[N];
static double *bufs[64];
static double *kept_ws;

static double *workspace(void)
{
    if (kept_ws == NULL)
        kept_ws = malloc(sizeof(double) * W);
    return kept_ws;
}

static void fill(double *w, const double *row)
{
    for (int k = 0; k < W; k++)
        w[k] = row[k] + 1.0;
}

int main(void)
{
    for (int i = 0; i < N; i++)
        for (int k = 0; k < W; k++)
            in[i][k] = (i * 5 + k) % 13;
    /* one block for the whole team: copyprivate hands the single thread's pointer out */
#pragma omp parallel
    {
        double *w;
#pragma omp single copyprivate(w)
        w = malloc(sizeof(double) * W);
#pragma omp for
        for (int i = 0; i < N; i++) {
            fill(w, in[i]);
            out[i] = w[0] + w[W - 1];
        }
    }
    /* the helper's workspace is one block for every caller */
#pragma omp parallel
    {
        double *w = workspace();
#pragma omp for
        for (int i = 0; i < N; i++) {
            fill(w, in[i]);
            out[i] += w[1] * w[2];
        }
    }
    /* each thread publishes its block; iterations read thread 0's */
#pragma omp parallel
    {
        double *w = malloc(sizeof(double) * W);
        bufs[omp_get_thread_num()] = w;
#pragma omp barrier
#pragma omp for
        for (int i = 0; i < N; i++) {
            fill(w, in[i]);
            out[i] += bufs[0][3];
        }
    }
    /* the block accumulates what the thread's earlier iterations added */
#pragma omp parallel
    {
        double *w = calloc(W, sizeof(double));
#pragma omp for
        for (int i = 0; i < N; i++) {
            w[0] += in[i][0];
            out[i] += w[0];
        }
        free(w);
    }
    /* the block's address, which differs between threads, is kept */
#pragma omp parallel
    {
        double *w = malloc(sizeof(double) * W);
#pragma omp for
        for (int i = 0; i < N; i++) {
            fill(w, in[i]);
            where[i] = (long)((uintptr_t)w % 4093);
        }
        free(w);
    }
    double s = 0;
    long t = 0;
    for (int i = 0; i < N; i++)
        s += out[i], t += where[i] != where[0];
    printf("%.1f %ld\n", s, t);
    return 0;
}

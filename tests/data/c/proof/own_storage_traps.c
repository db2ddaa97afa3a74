/* The iteration's own storage read before the iteration sets it: variables declared in
 * the loop body without a value, and blocks malloc hands out. What such a read sees is
 * what the thread's previous iteration left in that stack slot or freed block, so the
 * result follows the schedule and the team. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 2400
#define W 12

static char records[N][32];
static double value[N], out[N], in[N * W];
static unsigned long bucket[N];

struct cell {
    double mass;
    double charge;
};

static struct cell cells[N];

static double *scratch_row(size_t n)
{
    double *p = malloc(n * sizeof *p);
    if (p == NULL) {
        fprintf(stderr, "scratch_row: out of memory\n");
        exit(EXIT_FAILURE);
    }
    return p;
}

/* a record lacking its second field leaves weight as it was */
static void parse(void)
{
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        int id, weight;
        sscanf(records[i], "%d %d", &id, &weight);
        value[i] = id + 0.001 * weight;
    }
}

/* the key's bytes past the terminator were never written in this iteration */
static void hash_keys(void)
{
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        char key[24];
        unsigned long h = 5381;
        snprintf(key, sizeof key, "k%d", i);
        for (int c = 0; c < (int)sizeof key; c++)
            h = h * 33 + (unsigned char)key[c];
        bucket[i] = h % 1024;
    }
}

/* last is set on some items only */
static void hold_last(void)
{
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        double last;
        if (i % 4 == 0)
            last = in[i * W];
        out[i] = last * 0.5;
    }
}

/* the row is filled on every third item only */
static void partial_row(void)
{
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        double row[W], acc = 0.0;
        if (i % 3 == 0)
            for (int k = 0; k < W; k++)
                row[k] = in[i * W + k];
        for (int k = 0; k < W; k++)
            acc += row[k];
        out[i] += acc;
    }
}

/* malloc's block, freed at the end of each item, is filled on some items only */
static void partial_block(void)
{
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        double *tmp = malloc(W * sizeof *tmp), acc = 0.0;
        if (tmp == NULL)
            abort();
        if (i % 5 == 0)
            memcpy(tmp, in + (size_t)i * W, W * sizeof *tmp);
        for (int k = 0; k < W; k++)
            acc += tmp[k] * (k + 1);
        out[i] += acc;
        free(tmp);
    }
}

/* the same through a checked allocation wrapper */
static void partial_wrapped(void)
{
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        double *tmp = scratch_row(W), acc = 0.0;
        if (i % 2 == 0)
            for (int k = 0; k < W; k++)
                tmp[k] = in[i * W + k];
        for (int k = 0; k < W; k++)
            acc += tmp[k];
        out[i] += acc;
        free(tmp);
    }
}

/* charge is set on charged items only, then the whole cell is stored */
static void build_cells(void)
{
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        struct cell c;
        c.mass = in[i * W] + 1.0;
        if (i % 3 == 1)
            c.charge = -1.0;
        cells[i] = c;
    }
}

/* no case for the remainder 2 */
static void classify(void)
{
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        int code;
        switch (i % 3) {
        case 0:
            code = 1;
            break;
        case 1:
            code = 5;
            break;
        }
        out[i] += code;
    }
}

/* a helper's result is left unset for the remainder 2 */
static double interpolate(int i)
{
    double y;
    if (i % 3 == 0)
        y = in[i * W];
    else if (i % 3 == 1)
        y = -in[i * W + 1];
    return y;
}

static void lookups(void)
{
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        out[i] += interpolate(i);
}

/* a count of one does not say the second target was stored */
static void parse_counted(void)
{
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        int id, weight;
        if (sscanf(records[i], "%d %d", &id, &weight) >= 1)
            value[i] += id + 0.001 * weight;
    }
}

int main(void)
{
    double s = 0.0;
    unsigned long t = 0;
    for (int i = 0; i < N; i++) {
        if (i % 3 == 0)
            snprintf(records[i], sizeof records[i], "%d %d", i, 7 * i);
        else
            snprintf(records[i], sizeof records[i], "%d", i);
    }
    for (int i = 0; i < N * W; i++)
        in[i] = (i % 23) * 0.5;
    parse();
    hash_keys();
    hold_last();
    partial_row();
    partial_block();
    partial_wrapped();
    build_cells();
    classify();
    lookups();
    parse_counted();
    for (int i = 0; i < N; i++) {
        s += value[i] * (i % 5) + out[i] + cells[i].mass * cells[i].charge;
        t += bucket[i] * (unsigned long)(i + 1);
    }
    printf("%.6f %lu\n", s, t);
    return 0;
}

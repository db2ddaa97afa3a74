/* The iteration's own storage set before it is read, as real codes set it: a counter by
 * its loop's header, a code by a switch with a default, a struct by a helper through
 * its address, by memset, or member by member, calloc's zeros, a block filled by
 * memcpy, a scratch row filled by a loop. Every loop varies. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 2400
#define W 12
#define B 8

static double in[N * W], out[N];
static long hist[N];

struct moments {
    double sum;
    double sq;
    int n;
};

struct point {
    double x;
    double y;
};

static struct point pts[N];

static void centre_of(const double *row, struct point *p)
{
    p->x = row[0] + row[1];
    p->y = row[2] - row[3];
}

/* a counter declared in the body, set by its loop's header; a switch with a default */
static void stencil(void)
{
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        int k, code;
        double acc = 0.0;
        for (k = 0; k < W; k++)
            acc += in[i * W + k];
        switch (i % 3) {
        case 0:
            code = 1;
            break;
        case 1:
            code = 5;
            break;
        default:
            code = 9;
        }
        out[i] = acc * code;
    }
}

/* a struct set through its address by a helper, by memset, member by member */
static void structs(void)
{
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        struct point c;
        struct moments m;
        centre_of(in + (size_t)i * W, &c);
        memset(&m, 0, sizeof m);
        for (int k = 0; k < W; k++) {
            m.sum += in[i * W + k];
            m.sq += in[i * W + k] * in[i * W + k];
            m.n++;
        }
        out[i] += c.x * c.y + m.sq / m.n - m.sum;
    }
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        struct point p;
        p.x = in[i * W + 4];
        p.y = in[i * W + 5] * 2.0;
        pts[i] = p;
    }
}

/* calloc's zeros counted into; a block filled by memcpy; a row filled by a loop */
static void blocks(void)
{
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        long *count = calloc(B, sizeof *count);
        double *copy = malloc(W * sizeof *copy);
        double row[W], acc = 0.0;
        if (count == NULL || copy == NULL)
            abort();
        memcpy(copy, in + (size_t)i * W, W * sizeof *copy);
        for (int k = 0; k < W; k++)
            row[k] = copy[W - 1 - k] * 0.5;
        for (int k = 0; k < W; k++) {
            count[(int)copy[k] % B]++;
            acc += row[k];
        }
        hist[i] = count[0] + 3 * count[1];
        out[i] += acc;
        free(copy);
        free(count);
    }
}

/* a helper's table of constants, read by a search that returns from inside its loop,
 * called on the items that pass a test (as XSBench picks a material) */
static int pick_bin(double roll)
{
    double share[6];
    share[0] = 0.10;
    share[1] = 0.25;
    share[2] = 0.05;
    share[3] = 0.30;
    share[4] = 0.20;
    share[5] = 0.10;
    for (int b = 0; b < 6; b++) {
        double running = 0.0;
        for (int k = b; k >= 0; k--)
            running += share[k];
        if (roll < running)
            return b;
    }
    return 5;
}

static void picks(void)
{
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        if (in[i * W] < 1.0)
            continue;
        hist[i] += pick_bin(in[i * W + 1] / 12.0);
    }
}

/* records parsed with their count checked: both targets set where it is 2 */
static void parse(void)
{
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        char rec[32];
        int id, weight;
        snprintf(rec, sizeof rec, i % 3 ? "%d" : "%d %d", i, 2 * i);
        if (sscanf(rec, "%d %d", &id, &weight) == 2)
            hist[i] += id + weight;
        else
            hist[i] -= 1;
    }
}

int main(void)
{
    double s = 0.0;
    long t = 0;
    for (int i = 0; i < N * W; i++)
        in[i] = (i % 23) * 0.5;
    stencil();
    structs();
    blocks();
    picks();
    parse();
    for (int i = 0; i < N; i++) {
        s += out[i] * (i % 3 + 1) + pts[i].x - pts[i].y;
        t += hist[i] * (i % 7);
    }
    printf("%.6f %ld\n", s, t);
    return 0;
}

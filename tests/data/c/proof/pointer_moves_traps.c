/* Traps for pointers an iteration moves: places counted in bytes through a char or an
   integer view (each iteration reads the double the next one writes), a cursor sent
   back to the buffer's start by a helper through its address, through a second pointer
   to it, or by memcpy, or on one branch only (every iteration so sent updates one
   element), a pointer redirected through an alias of its address before the loop, and a
   2-D array's bytes walked flat.
   Each loop is a race as written: kept. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define N 3000

static double a[N + 8], b[N + 8], c[N + 8], d[N + 8], e[N + 8], f[N + 8], g[N + 8];

static void rewind_to(double **cur, double *start) { *cur = start; }

static void byte_records(double *p)
{
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        double *rec = (double *)((char *)p + sizeof(double) * i);
        rec[0] = rec[1] + 1.0;
    }
}

static void address_records(double *p)
{
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        double *rec = (double *)((uintptr_t)p + 8 * (uintptr_t)i);
        rec[0] = rec[1] + 1.0;
    }
}

static void helper_moved(double *p)
{
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        double *cur = p + i;
        if (i % 5 == 0)
            rewind_to(&cur, p);
        cur[0] += 1.0;
    }
}

static void alias_moved(double *p)
{
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        double *cur = p + i;
        double **at = &cur;
        *at -= i;
        cur[0] += 1.0;
    }
}

static void copied_over(double *p)
{
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        double *cur = p + i, *start = p;
        memcpy(&cur, &start, sizeof cur);
        cur[0] += 1.0;
    }
}

static void redirected(void)
{
    double *out = f;
    double **at = &out;
    *at = g;
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        out[i] = g[i + 1] + 1.0;
}

static void branch_moved(double *p, const double *w)
{
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        double *cur = p + i;
        if (w[i] > 3.0)
            cur -= i;
        cur[0] += 1.0;
    }
}

static double grid[40][50];

static void flat_bytes(void)
{
#pragma omp parallel for
    for (int j = 0; j < 40 * 50 - 1; j++) {
        double *q = (double *)((char *)grid + 8 * j);
        q[0] = q[1] + 1.0;
    }
}

int main(void)
{
    double s0 = 0.0;
    for (int i = 0; i < N + 8; i++)
        a[i] = b[i] = c[i] = d[i] = e[i] = f[i] = g[i] = i % 7;
    byte_records(a);
    address_records(b);
    helper_moved(c);
    alias_moved(d);
    copied_over(e);
    redirected();
    branch_moved(a, b);
    for (int i = 0; i < 40 * 50; i++)
        grid[i / 50][i % 50] = i % 9;
    flat_bytes();
    for (int i = 0; i < 40 * 50; i++)
        s0 += grid[i / 50][i % 50];
    double s = s0;
    for (int i = 0; i < N + 8; i++)
        s += a[i] + 3 * b[i] + 5 * c[i] + 7 * d[i] + 11 * e[i] + 13 * f[i] + 17 * g[i];
    printf("checksum %.6f\n", s);
    return 0;
}

/* Batched complex FFTs along the rows of a grid, in the style of NPB FT's cffts1, with
   the sizes fixed when compiled (const locals, macros): each thread copies a block of
   rows into its own scratch, runs the Stockham passes there (lk = 2^(l-1),
   li = 2^(m-l)), and copies the result back. The pass loop has constant bounds, so the
   proof walks it pass by pass without a profile run. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define MAXN 64
#define BLOCK 8
#define LOGN 6

typedef struct {
    double re, im;
} cplx;

static cplx roots[MAXN];

static void make_roots(int n) {
    for (int k = 0; k < n; k++) {
        roots[k].re = cos(2.0 * M_PI * k / n);
        roots[k].im = -sin(2.0 * M_PI * k / n);
    }
}

/* one Stockham pass: from x into y */
static void pass(int l, int m, int n, cplx x[MAXN][BLOCK], cplx y[MAXN][BLOCK]) {
    int half = n / 2;
    int lk = 1 << (l - 1);
    int li = 1 << (m - l);
    int lj = 2 * lk;
    for (int i = 0; i < li; i++) {
        cplx w = roots[i * lk];
        for (int k = 0; k < lk; k++) {
            for (int j = 0; j < BLOCK; j++) {
                cplx a = x[i * lk + k][j];
                cplx b = x[i * lk + k + half][j];
                y[i * lj + k][j].re = a.re + b.re;
                y[i * lj + k][j].im = a.im + b.im;
                y[i * lj + lk + k][j].re = w.re * (a.re - b.re) - w.im * (a.im - b.im);
                y[i * lj + lk + k][j].im = w.re * (a.im - b.im) + w.im * (a.re - b.re);
            }
        }
    }
}

static void fft_block(int m, int n, cplx x[MAXN][BLOCK], cplx y[MAXN][BLOCK]) {
    if (m < 1 || n > MAXN) {
        fprintf(stderr, "fft_block: bad size %d\n", n);
        exit(1);
    }
    for (int l = 1; l <= m; l += 2) {
        pass(l, m, n, x, y);
        if (l == m)
            break;
        pass(l + 1, m, n, y, x);
    }
    if (m % 2 == 1) {
        for (int i = 0; i < n; i++)
            for (int j = 0; j < BLOCK; j++)
                x[i][j] = y[i][j];
    }
}

static void row_ffts(cplx (*grid)[MAXN]) {
    const int m = LOGN, n = 1 << LOGN, rows = 64;
#pragma omp parallel
    {
        cplx x[MAXN][BLOCK];
        cplx y[MAXN][BLOCK];
#pragma omp for
        for (int r = 0; r < rows; r += BLOCK) {
            for (int j = 0; j < BLOCK; j++)
                for (int i = 0; i < n; i++)
                    x[i][j] = grid[r + j][i];
            fft_block(m, n, x, y);
            for (int j = 0; j < BLOCK; j++)
                for (int i = 0; i < n; i++)
                    grid[r + j][i] = x[i][j];
        }
    }
}

int main(void) {
    const int rows = 64, n = 1 << LOGN;
    cplx (*grid)[MAXN] = malloc(sizeof(cplx[MAXN]) * rows);
    for (int r = 0; r < rows; r++)
        for (int i = 0; i < n; i++) {
            grid[r][i].re = sin(0.1 * r + 0.37 * i);
            grid[r][i].im = cos(0.05 * r * i);
        }
    make_roots(n);
    row_ffts(grid);
    double s = 0.0;
    for (int r = 0; r < rows; r++)
        for (int i = 0; i < n; i++)
            s += grid[r][i].re * (r + 1) - grid[r][i].im * (i + 1);
    printf("n=%d rows=%d checksum %.10e\n", n, rows, s);
    free(grid);
    return 0;
}

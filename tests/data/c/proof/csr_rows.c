/* Compressed sparse rows, as sparse solvers and graph codes keep them: row r's entries
 * sit in [rowptr[r], rowptr[r + 1]) of one array. Each loop below writes only its own
 * row's entries where the offsets do not decrease, a fact of the data. The last three
 * are traps: rows that share their end entry, a write one entry on, and offsets the
 * loop itself moves. Run as "csr_rows N SHUFFLE": SHUFFLE 1 gives offsets out of
 * order, whose rows overlap. */
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    int nrows;
    int *rowptr;
    int *col;
    double *val;
} csr_t;

static void scale_rows(csr_t *m, const double *d)
{
#pragma omp parallel for schedule(static)
    for (int r = 0; r < m->nrows; r++)
        for (int k = m->rowptr[r]; k < m->rowptr[r + 1]; k++)
            m->val[k] *= d[r];
}

static void shift_cols(int n, const int *rowstr, int *colidx, int first)
{
#pragma omp parallel for
    for (int j = 1; j <= n; j++)
        for (int k = rowstr[j]; k <= rowstr[j + 1] - 1; k++)
            colidx[k] = colidx[k] - first;
}

static void weigh_edges(long nv, const long *offs, const int *adj, float *w, const int *deg)
{
#pragma omp parallel for schedule(dynamic, 16)
    for (long v = 0; v < nv; v++) {
        for (long e = offs[v]; e < offs[v + 1]; e++)
            w[e] = (float)(v + 1) / (float)(deg[v] + deg[adj[e]] + 1);
    }
}

static void share_ends(int n, const int *rowptr, double *val)
{
#pragma omp parallel for
    for (int r = 0; r < n; r++)
        for (int k = rowptr[r]; k <= rowptr[r + 1]; k++)
            val[k] = val[k] * 0.5 + r;
}

static void shift_right(int n, const int *rowptr, double *val)
{
#pragma omp parallel for
    for (int r = 0; r < n; r++)
        for (int k = rowptr[r]; k < rowptr[r + 1]; k++)
            val[k + 1] = val[k] + r;
}

static void compact(int n, int *rowptr, double *val)
{
#pragma omp parallel for
    for (int r = 0; r < n; r++) {
        for (int k = rowptr[r]; k < rowptr[r + 1]; k++)
            val[k] += 1.0;
        rowptr[r] = rowptr[r] / 2;
    }
}

/* inside a region, as NPB CG sets up its matrix: every thread runs the check */
static void setup(int n, const int *rowstr, int *colidx, double *x, double *z, int first)
{
#pragma omp parallel
    {
#pragma omp for nowait
        for (int j = 0; j < n; j++)
            for (int k = rowstr[j]; k < rowstr[j + 1]; k++)
                colidx[k] = colidx[k] + first;
#pragma omp for nowait
        for (int i = 0; i < n; i++)
            x[i] = 1.0;
#pragma omp for nowait
        for (int i = 0; i < n; i++)
            z[i] = 0.0;
    }
}

/* a trap: the region moves the offsets after the loop, and a thread still checking them
 * would see another thread's moves */
static void restart(int n, int *rowptr, double *val, int *mark)
{
#pragma omp parallel
    {
#pragma omp for nowait
        for (int r = 0; r < n; r++)
            for (int k = rowptr[r]; k < rowptr[r + 1]; k++)
                val[k] += 0.25;
#pragma omp single
        mark[0] = rowptr[n];
#pragma omp single
        rowptr[n] = rowptr[n] + 0;
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 2000;
    int shuffle = argc > 2 ? atoi(argv[2]) : 0;
    csr_t m;
    m.nrows = n;
    m.rowptr = malloc(sizeof(int) * (n + 2));
    m.rowptr[0] = 0;
    for (int r = 0; r <= n; r++)
        m.rowptr[r + 1] = m.rowptr[r] + 1 + (r * 7) % 5;
    if (shuffle)
        for (int r = 1; r < n; r += 3)
            m.rowptr[r] = m.rowptr[r + 1] + 2;  /* rows r - 1 and r overlap */
    int nnz = m.rowptr[n + 1] + 8;
    m.col = malloc(sizeof(int) * nnz);
    m.val = malloc(sizeof(double) * nnz);
    double *d = malloc(sizeof(double) * (n + 1));
    long *offs = malloc(sizeof(long) * (n + 1));
    int *deg = malloc(sizeof(int) * (n + 1));
    float *w = malloc(sizeof(float) * nnz);
    for (int k = 0; k < nnz; k++) {
        m.col[k] = 1 + (k * 13) % n;
        m.val[k] = 1.0 + k % 7;
        w[k] = 0.0f;
    }
    for (int r = 0; r <= n; r++) {
        d[r] = 1.0 + r % 3;
        offs[r] = m.rowptr[r];
        deg[r] = m.rowptr[r + 1] > m.rowptr[r] ? m.rowptr[r + 1] - m.rowptr[r] : 1;
    }
    for (int it = 0; it < 3; it++)
        scale_rows(&m, d);
    shift_cols(n - 1, m.rowptr, m.col, 1);
    weigh_edges(n, offs, m.col, w, deg);
    share_ends(n, m.rowptr, m.val);
    shift_right(n, m.rowptr, m.val);
    compact(n, m.rowptr, m.val);
    double *x = malloc(sizeof(double) * n), *z = malloc(sizeof(double) * n);
    int mark = 0;
    setup(n, m.rowptr, m.col, x, z, 2);
    restart(n, m.rowptr, m.val, &mark);
    double s = 0.0;
    long c = 0;
    for (int k = 0; k < nnz; k++) {
        s += m.val[k] * (1 + k % 3) + w[k];
        c += m.col[k] * (k % 5);
    }
    for (int i = 0; i < n; i++)
        s += x[i] + 2 * z[i];
    printf("%.6f %ld %d\n", s, c, mark);
    return 0;
}

/* Sparse matrix-vector product on a matrix read from a file named on the
   command line (rows, then each row's length), as Rodinia-style codes do.
   The row lengths are data: the matrix file decides the work per row. */
#include <stdio.h>
#include <stdlib.h>

typedef struct { int nrows; int *rowptr; int *col; double *val; } Csr;

static int read_matrix(const char *path, Csr *m)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    if (fscanf(f, "%d", &m->nrows) != 1) { fclose(f); return -1; }
    m->rowptr = malloc(sizeof(int) * (m->nrows + 1));
    m->rowptr[0] = 0;
    for (int r = 0; r < m->nrows; r++) {
        int len;
        if (fscanf(f, "%d", &len) != 1) { fclose(f); return -1; }
        m->rowptr[r + 1] = m->rowptr[r] + len;
    }
    fclose(f);
    int nnz = m->rowptr[m->nrows];
    m->col = malloc(sizeof(int) * nnz);
    m->val = malloc(sizeof(double) * nnz);
    for (int r = 0; r < m->nrows; r++)
        for (int k = m->rowptr[r]; k < m->rowptr[r + 1]; k++) {
            m->col[k] = (r + k * 7) % m->nrows;
            m->val[k] = 1.0 / (1 + k % 13);
        }
    return 0;
}

int main(int argc, char **argv)
{
    Csr m;
    if (argc < 2 || read_matrix(argv[1], &m) != 0) {
        fprintf(stderr, "usage: csr_file MATRIX\n");
        return 1;
    }
    double *x = malloc(sizeof(double) * m.nrows), *y = malloc(sizeof(double) * m.nrows);
    for (int r = 0; r < m.nrows; r++) x[r] = 1.0 + r % 3;
#pragma omp parallel for schedule(static)
    for (int r = 0; r < m.nrows; r++) {
        double s = 0.0;
        for (int k = m.rowptr[r]; k < m.rowptr[r + 1]; k++)
            s += m.val[k] * x[m.col[k]];
        y[r] = s;
    }
    double sum = 0.0;
    for (int r = 0; r < m.nrows; r++) sum += y[r];
    printf("spmv %.10e\n", sum);
    return 0;
}

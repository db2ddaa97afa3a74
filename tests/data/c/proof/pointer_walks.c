/* Pointers an iteration moves on its own, as record readers and row kernels do: a
   cursor stepped past a record's header, a row pointer moved by its stride, records
   addressed in bytes through a char pointer, a cursor moved back over a guard cell. */
#include <stdio.h>
#include <stdlib.h>

#define NREC 2000
#define RECLEN 6 /* a header and five values */

static double checksum(const double *v, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += v[i] * (1 + i % 3);
    return s;
}

/* each record's values scaled by its own header */
static void scale_records(double *recs, int nrec)
{
#pragma omp parallel for
    for (int r = 0; r < nrec; r++) {
        double *cur = recs;
        cur += (size_t)r * RECLEN;
        double scale = cur[0];
        cur++;
        for (int k = 0; k < RECLEN - 1; k++)
            cur[k] *= scale;
    }
}

/* rows of a matrix stored by rows, reached through a pointer moved by the stride */
static void normalise_rows(double *m, int rows, int cols)
{
#pragma omp parallel for
    for (int r = 0; r < rows; r++) {
        double *row = m;
        row += r * cols;
        double s = 0.0;
        for (int j = 0; j < cols; j++)
            s += row[j];
        for (int j = 0; j < cols; j++)
            row[j] /= s;
    }
}

/* records addressed by their byte offset in the buffer */
static void clip_records(double *buf, int nrec)
{
    char *base = (char *)buf;
#pragma omp parallel for
    for (int r = 0; r < nrec; r++) {
        double *rec = (double *)(base + (size_t)r * RECLEN * sizeof(double));
        for (int k = 1; k < RECLEN; k++)
            if (rec[k] > rec[0])
                rec[k] = rec[0];
    }
}

/* a cell updated through a cursor set past the guard and moved back */
static void relax_cells(double *cells, int n)
{
#pragma omp parallel for
    for (int i = 0; i < n; i++) {
        double *c = cells + i + 2;
        c--;
        c -= 1;
        c[0] = 0.5 * c[0] + 1.0;
    }
}

int main(void)
{
    int nrec = NREC;
    double *recs = malloc(sizeof(double) * nrec * RECLEN);
    double *m = malloc(sizeof(double) * nrec * RECLEN);
    for (int i = 0; i < nrec * RECLEN; i++) {
        recs[i] = 1.0 + (i * 7 % 11) * 0.25;
        m[i] = 1.0 + (i * 5 % 13);
    }
    scale_records(recs, nrec);
    normalise_rows(m, nrec, RECLEN);
    clip_records(recs, nrec);
    relax_cells(m, nrec * RECLEN - 2);
    printf("records %.9e\nrows %.9e\n", checksum(recs, nrec * RECLEN), checksum(m, nrec * RECLEN));
    free(recs);
    free(m);
    return 0;
}

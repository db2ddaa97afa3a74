/* The program around the library: buffers from one aligned pool, each kernel called on
 * separate buffers, and with "inplace" also on one buffer twice where that is safe as
 * written (each element read and written by one iteration), as real codes do. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NCOL 64

void axpy(double *y, const double *x, double alpha, int n);
void smooth3(double *out, const double *in, int n);
void scale_rows(double *m, const double *f, int rows, int cols);
void add_grids(double (*c)[NCOL], double (*a)[NCOL], double (*b)[NCOL], int rows);
void copy_rows(double **dst, double **src, int rows, int cols);
void gather_shift(double *out, const double *in, size_t n);
void weigh(double *out, const int *count, int n);
void smooth_weighted(double *out, const double *in, const double *w, int n);

static double *pool[4];

static double checksum(const double *v, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += v[i] * (i % 7 + 1);
    return s;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 4096;
    int inplace = argc > 2 && strcmp(argv[2], "inplace") == 0;
    for (int k = 0; k < 4; k++)
        if (posix_memalign((void **)&pool[k], 64, (size_t)(n + NCOL) * NCOL * sizeof(double)))
            return 1;
    double *a = pool[0], *b = pool[1], *c = pool[2];
    for (int i = 0; i < n; i++) {
        a[i] = (i * 37 % 101) * 0.01;
        b[i] = (i * 11 % 23) * 0.1;
        c[i] = 1.0 + (i % 5) * 0.25;
    }
    for (int s = 0; s < 4; s++) {
        axpy(a, b, 0.5, n);
        if (inplace)
            axpy(c, c, -0.25, n);
        smooth3(c, b, n);
        scale_rows(a, c, n / 16, 16);
        gather_shift(b, a, (size_t)n);
        smooth_weighted(a, b, inplace ? a : c, n);  /* the weights may be the output */
    }
    int rows = n / NCOL;
    double (*g)[NCOL] = (double (*)[NCOL])pool[3];
    for (int i = 0; i < rows * NCOL; i++)
        pool[3][i] = i % 13;
    add_grids(g + rows / 2, g, g, rows / 2);
    if (inplace)
        add_grids(g, g, g, rows);
    double *ra[8], *rb[8];
    for (int r = 0; r < 8; r++) {
        ra[r] = a + r * 16;
        rb[r] = inplace ? a + r * 16 : b + r * 16;
    }
    copy_rows(ra, rb, 8, 15);
    int *count = (int *)(inplace ? c + n / 2 : b);  /* beside the values, or past them */
    for (int i = 0; i < n; i++)
        count[i] = i % 3;
    weigh(inplace ? c : a, count, inplace ? n / 4 : n);
    printf("%.9f %.9f %.9f %.9f\n", checksum(a, n), checksum(b, n), checksum(c, n),
           checksum(pool[3], rows * NCOL));
    return 0;
}

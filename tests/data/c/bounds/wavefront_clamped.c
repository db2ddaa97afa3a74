/* A Gauss-Seidel sweep skewed into anti-diagonals, as wavefront codes parallelise it
 * (PolyBench's seidel-2d in its OpenMP ports): the points of one diagonal 2*i + j == w
 * depend only on earlier diagonals, so each diagonal runs in parallel. Its bounds are
 * computed before the loop and clamped by an if, which is how such codes write min and
 * max. Then a blocked smoothing pass whose block end is clamped to the grid. */
#include <stdio.h>

#define N 120
#define TSTEPS 4
#define BS 32

static double A[N][N];
static double row_sum[N];

static void sweep(int tsteps, int n)
{
    int t, w, i, j, ilo, ihi;
    for (t = 0; t < tsteps; t++)
        for (w = 3; w <= 3 * (n - 2); w++) {
            ihi = (w - 1) / 2;
            if (ihi > n - 2)
                ihi = n - 2;
            ilo = (w - (n - 2) + 1) / 2;
            if (ilo < 1)
                ilo = 1;
#pragma omp parallel for private(j)
            for (i = ilo; i <= ihi; i++) {
                j = w - 2 * i;
                A[i][j] = (A[i - 1][j - 1] + A[i - 1][j] + A[i - 1][j + 1] + A[i][j - 1] +
                           A[i][j] + A[i][j + 1] + A[i + 1][j - 1] + A[i + 1][j] +
                           A[i + 1][j + 1]) / 9.0;
            }
        }
}

static void block_sums(int n)
{
    int ib;
#pragma omp parallel for
    for (ib = 0; ib < n; ib += BS) {
        int i, j, iend;
        iend = ib + BS;
        if (iend > n)
            iend = n;
        for (i = ib; i < iend; i++) {
            double s = 0.0;
            for (j = 0; j < n; j++)
                s += A[i][j];
            row_sum[i] = s;
        }
    }
}

int main(void)
{
    int i, j;
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            A[i][j] = ((double)i * (j + 2) + 2) / N;
    sweep(TSTEPS, N);
    block_sums(N);
    double total = 0.0;
    for (i = 0; i < N; i++)
        total += row_sum[i] * (1 + i % 7);
    printf("total %.15e\n", total);
    return 0;
}

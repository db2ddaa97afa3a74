/* Boundary tests that do not keep a shifted subscript in its row, and subscripts that
   leave their array. A scatter to the row above, beside the iteration's own row,
   crosses rows (iterations i and i + 1 both add to row i); j >= 0 keeps nothing out;
   an unsigned j - 1u >= 0 holds at j = 0 too; an off-by-one shift writes one past the
   end of c, and a stencil reads one before the start of u: C calls both undefined, and
   the memory is another array's, which the loop may write (gcc lays the arrays out one
   after the other). */
#include <stdio.h>

#define H 200
#define W 128
#define N 50000

static double img[H][W], out[H][W];
static double a[N], b[N], c[N], u[N], v[N];

int main(void)
{
    int i, j;
    for (i = 0; i < H; i++)
        for (j = 0; j < W; j++)
            img[i][j] = (double)((i * 13 + j * 7) % 31);
    for (i = 0; i < N; i++) {
        a[i] = i % 7;
        b[i] = i % 5;
        u[i] = i % 11;
    }

#pragma omp parallel for private(j)
    for (i = 0; i < H; i++)
        for (j = 0; j < W; j++) {
            out[i][j] += 0.5 * img[i][j];
            if (i > 0)
                out[i - 1][j] += 0.25 * img[i][j];
        }

#pragma omp parallel for private(j)
    for (i = 0; i < H; i++)
        for (j = 0; j < W; j++)
            if (j >= 0)
                out[i][j - 1] += 0.5 * img[i][j];

#pragma omp parallel for private(j)
    for (i = 0; i < H; i++)
        for (j = 0; j < W; j++)
            if (j - 1u >= 0)
                out[i][j - 1] += 0.125 * img[i][j];

#pragma omp parallel for
    for (i = 0; i < N; i++)
        c[i + 1] = a[i] + 3.0 * b[i];

#pragma omp parallel for
    for (i = 0; i < N - 1; i++)
        v[i] = 0.5 * (u[i - 1] + u[i + 1]);

    double s = 0.0;
    for (i = 0; i < H; i++)
        for (j = 0; j < W; j++)
            s += out[i][j] * (j % 5);
    for (i = 0; i < N; i++)
        s += c[i] * (i % 3) + v[i];
    printf("checksum %.6f\n", s);
    return 0;
}

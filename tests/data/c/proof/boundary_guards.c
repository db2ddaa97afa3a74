/* Boundary tests around shifted subscripts, as image and stencil codes write them: a
   horizontal blur scattered from each pixel to its neighbours in the row, the edges
   left out by if-tests; a one-sided difference chosen by ?: at the last column; a 1-D
   flux written to the face before the cell, except at the first cell; peaks found by
   comparing with the neighbours behind && and ||, a left value chosen by ?:, and a
   centred difference after the end cells are skipped with continue. Each iteration
   writes its own row or its own faces. */
#include <stdio.h>

#define H 300
#define W 256
#define NC 20000

static double img[H][W], out[H][W], grad[H][W];
static double q[NC], face[NC];
static int peak[NC];

int main(void)
{
    int i, j;
    for (i = 0; i < H; i++)
        for (j = 0; j < W; j++)
            img[i][j] = (double)((i * 13 + j * 7) % 31);
    for (i = 0; i < NC; i++)
        q[i] = (double)(i % 17) * 0.5;

#pragma omp parallel for private(j)
    for (i = 0; i < H; i++)
        for (j = 0; j < W; j++) {
            out[i][j] += 0.5 * img[i][j];
            if (j > 0)
                out[i][j - 1] += 0.25 * img[i][j];
            if (j < W - 1)
                out[i][j + 1] += 0.25 * img[i][j];
        }

#pragma omp parallel for private(j)
    for (i = 0; i < H; i++)
        for (j = 0; j < W; j++)
            grad[i][j] = j + 1 < W ? img[i][j + 1] - img[i][j] : img[i][j] - img[i][j - 1];

#pragma omp parallel for
    for (i = 0; i < NC; i++) {
        if (i != 0 && !(i >= NC))
            face[i - 1] = 0.5 * (q[i] + q[i - 1]);
    }

#pragma omp parallel for
    for (i = 0; i < NC; i++) {
        double left = i ? q[i - 1] : q[i];
        peak[i] = (i > 0 && q[i - 1] < q[i]) && (i == NC - 1 || q[i + 1] < q[i]);
        face[i] += 0.25 * left;
    }

#pragma omp parallel for
    for (i = 0; i < NC; i++) {
        if (i == 0 || i == NC - 1)
            continue;
        face[i] += 0.5 * (q[i + 1] - q[i - 1]);
    }

    double s = 0.0;
    for (i = 0; i < H; i++)
        for (j = 0; j < W; j++)
            s += out[i][j] * (j % 5) + grad[i][j];
    for (i = 0; i < NC; i++)
        s += face[i] * (i % 3) + peak[i];
    printf("checksum %.6f\n", s);
    return 0;
}

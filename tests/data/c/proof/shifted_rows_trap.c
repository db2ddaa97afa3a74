/* A smoothing pass that writes one row below the rows it reads, both pointers into one
 * grid from an allocating helper: dst = g + shift with shift read from the command line
 * (one row by default), so iteration i writes the row iteration i + 1 reads. The two
 * pointers' offsets are unknown and differ: nothing cancels. */
#include <stdio.h>
#include <stdlib.h>

static float *grid(int rows, int cols)
{
    float *g = (float *)malloc(sizeof(float) * (rows + 1) * cols);
    for (int k = 0; k < (rows + 1) * cols; k++)
        g[k] = (float)(k % 11);
    return g;
}

static void smooth(float *dst, const float *src, int rows, int cols)
{
#pragma omp parallel for
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            dst[i * cols + j] = 0.5f * (src[i * cols + j] + 1.0f);
}

int main(int argc, char **argv)
{
    int rows = 200, cols = argc > 1 ? atoi(argv[1]) : 64;
    int shift = argc > 2 ? atoi(argv[2]) : cols;
    float *g = grid(rows, cols);
    smooth(g + shift, g, rows, cols);
    double s = 0.0;
    for (int k = 0; k < (rows + 1) * cols; k++)
        s += g[k] * (k % 7);
    printf("%.6f\n", s);
    free(g);
    return 0;
}

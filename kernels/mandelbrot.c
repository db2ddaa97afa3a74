/* Mandelbrot set: the escape-time loop runs a data-dependent number of
 * iterations (up to MAXIT), so rows through the set cost far more. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#ifndef WIDTH
#define WIDTH 640
#endif
#ifndef HEIGHT
#define HEIGHT 480
#endif
#ifndef MAXIT
#define MAXIT 1000
#endif

static int counts[HEIGHT][WIDTH];

static void mandelbrot(void)
{
    int row, c;
#pragma omp parallel for private(c)
    for (row = 0; row < HEIGHT; row++) {
        for (c = 0; c < WIDTH; c++) {
            double cr = -2.2 + 3.2 * (double)c / (double)WIDTH;
            double ci = -1.2 + 2.4 * (double)row / (double)HEIGHT;
            double zr = 0.0, zi = 0.0;
            int it = 0;
            while (it < MAXIT && zr * zr + zi * zi <= 4.0) {
                double t = zr * zr - zi * zi + cr;
                zi = 2.0 * zr * zi + ci;
                zr = t;
                it++;
            }
            counts[row][c] = it;
        }
    }
}

int main(void)
{
    long total = 0;
    int row, c;
    mandelbrot();
    for (row = 0; row < HEIGHT; row++)
        for (c = 0; c < WIDTH; c++)
            total += (long)counts[row][c] * (1 + (row + c) % 3);
    printf("checksum: %.12e\n", (double)total);
    return 0;
}

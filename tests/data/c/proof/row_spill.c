/* A row update written with its last store spilling into the next row: img[i][j + 1]
   for j up to W - 1 writes img[i + 1][0], which iteration i + 1 reads first. C calls the
   subscript undefined, but the memory is contiguous and gcc builds it: which value row
   i + 1 starts from depends on which thread ran row i, and when. */
#include <stdio.h>
#define H 200
#define W 100
static double img[H][W];
int main(void)
{
    for (int i = 0; i < H; i++)
        for (int j = 0; j < W; j++)
            img[i][j] = i + j;
#pragma omp parallel for
    for (int i = 0; i < H - 1; i++) {
        double first = img[i][0];
        for (int j = 0; j < W; j++)
            img[i][j + 1] = first + j;
    }
    double s = 0.0;
    for (int i = 0; i < H; i++)
        for (int j = 0; j < W; j++)
            s = s * 0.999 + img[i][j];
    printf("%.17g\n", s);
    return 0;
}

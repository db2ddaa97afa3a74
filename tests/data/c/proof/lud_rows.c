/* Rodinia lud (omp/lud_omp.c) style: row and column updates of one step in two
 * parallel loops inside the sequential step loop, indexed a[i*size + j]; the matrix is
 * diagonally dominant so no pivoting is needed. Prints a checksum of the factors. */
#include <stdio.h>
#include <stdlib.h>

#ifndef SIZE
#define SIZE 96
#endif

static void lud(float *a, int size)
{
    int i, j, k;
    float sum;
    for (i = 0; i < size; i++) {
#pragma omp parallel for schedule(auto) private(j, k, sum)
        for (j = i; j < size; j++) {
            sum = a[i * size + j];
            for (k = 0; k < i; k++)
                sum -= a[i * size + k] * a[k * size + j];
            a[i * size + j] = sum;
        }
#pragma omp parallel for schedule(auto) private(j, k, sum)
        for (j = i + 1; j < size; j++) {
            sum = a[j * size + i];
            for (k = 0; k < i; k++)
                sum -= a[j * size + k] * a[k * size + i];
            a[j * size + i] = sum / a[i * size + i];
        }
    }
}

int main(void)
{
    int size = SIZE;
    float *a = malloc(sizeof(float) * size * size);
    for (int i = 0; i < size; i++)
        for (int j = 0; j < size; j++)
            a[i * size + j] = (i == j) ? (float)size : (float)((i * 13 + j * 7) % 17) / 17.0f;
    lud(a, size);
    double s = 0.0;
    for (int i = 0; i < size * size; i++)
        s += a[i];
    printf("checksum %.4e\n", s);
    free(a);
    return 0;
}

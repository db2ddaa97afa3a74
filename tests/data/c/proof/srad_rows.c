/* Rodinia srad style: an image in one malloc'd block indexed k = i + Nr*j, neighbour
 * indices from index arrays, sizes from the command line. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int Nr = argc > 1 ? atoi(argv[1]) : 60, Nc = argc > 2 ? atoi(argv[2]) : 50;
    int Ne = Nr * Nc, i, j, k;
    float *image = malloc(sizeof(float) * Ne), *c = malloc(sizeof(float) * Ne);
    float *dN = malloc(sizeof(float) * Ne), *dS = malloc(sizeof(float) * Ne);
    int *iN = malloc(sizeof(int) * Nr), *iS = malloc(sizeof(int) * Nr);
    float Jc, G2;
    for (i = 0; i < Nr; i++) {
        iN[i] = i > 0 ? i - 1 : 0;
        iS[i] = i < Nr - 1 ? i + 1 : Nr - 1;
    }
    for (k = 0; k < Ne; k++)
        image[k] = (k % 13) * 0.5f + 1.0f;
#pragma omp parallel for shared(image, dN, dS, c, Nr, Nc, iN, iS) private(i, j, k, Jc, G2)
    for (j = 0; j < Nc; j++) {
        for (i = 0; i < Nr; i++) {
            k = i + Nr * j;
            Jc = image[k];
            dN[k] = image[iN[i] + Nr * j] - Jc;
            dS[k] = image[iS[i] + Nr * j] - Jc;
            G2 = (dN[k] * dN[k] + dS[k] * dS[k]) / (Jc * Jc);
            c[k] = 1.0f / (1.0f + G2);
            if (c[k] < 0)
                c[k] = 0;
        }
    }
    double s = 0.0;
    for (k = 0; k < Ne; k++)
        s += c[k] * (k % 7);
    printf("%.5f\n", s);
    free(image); free(c); free(dN); free(dS); free(iN); free(iS);
    return 0;
}

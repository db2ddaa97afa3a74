/* Particle-filter style resampling (after Rodinia's particlefilter): the particle
 * count comes from the command line, and the parallel loop calls functions whose
 * own loops are bounded by their parameters and locals. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

int findIndex(double *CDF, int lengthCDF, double value)
{
    int index = -1;
    int x;
    for (x = 0; x < lengthCDF; x++) {
        if (CDF[x] >= value) {
            index = x;
            break;
        }
    }
    if (index == -1)
        return lengthCDF - 1;
    return index;
}

double smooth(const double *w, int count)
{
    int half = count / 2;
    double s = 0.0;
    for (int k = 0; k < half; k++)
        s += w[k];
    return s / (half + 1);
}

void resample(double *CDF, double *u, int *ind, double *weights, int Nparticles)
{
    int j;
#pragma omp parallel for shared(CDF, u, ind, weights) private(j)
    for (j = 0; j < Nparticles; j++) {
        ind[j] = findIndex(CDF, Nparticles, u[j]);
        weights[j] = smooth(CDF, 8);
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    if (n < 1) {
        fprintf(stderr, "usage: %s PARTICLES\n", argv[0]);
        return 2;
    }
    double *CDF = malloc(sizeof(double) * n), *u = malloc(sizeof(double) * n);
    double *weights = malloc(sizeof(double) * n);
    int *ind = malloc(sizeof(int) * n);
    for (int i = 0; i < n; i++) {
        CDF[i] = (i + 1.0) / n;
        u[i] = fmod(i * 0.618033988749895, 1.0);
    }
    resample(CDF, u, ind, weights, n);
    long s = 0;
    double w = 0.0;
    for (int i = 0; i < n; i++) {
        s += ind[i];
        w += weights[i];
    }
    printf("index sum %ld weight sum %.6f\n", s, w);
    free(CDF);
    free(u);
    free(weights);
    free(ind);
    return 0;
}

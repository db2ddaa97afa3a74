/* Partial results kept one row per thread and added up after the region, as k-means
 * codes and per-thread histograms write them: another schedule puts each term in
 * another row, and the sum over every row is the same. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define NPOINTS 6000
#define NFEAT 4
#define NCLUST 5
#define NBINS 16

static float feature[NPOINTS][NFEAT];
static int membership[NPOINTS];
static int values[NPOINTS];

static int nearest(const float *pt, float centers[NCLUST][NFEAT])
{
    int best = 0;
    float min_dist = 1e30f;
    for (int c = 0; c < NCLUST; c++) {
        float d = 0.0f;
        for (int j = 0; j < NFEAT; j++)
            d += (pt[j] - centers[c][j]) * (pt[j] - centers[c][j]);
        if (d < min_dist) {
            min_dist = d;
            best = c;
        }
    }
    return best;
}

static void cluster(float centers[NCLUST][NFEAT])
{
    int nthreads = omp_get_max_threads();
    int **counts = malloc(nthreads * sizeof(int *));
    float ***sums = malloc(nthreads * sizeof(float **));
    counts[0] = calloc(nthreads * NCLUST, sizeof(int));
    sums[0] = malloc(nthreads * NCLUST * sizeof(float *));
    sums[0][0] = calloc(nthreads * NCLUST * NFEAT, sizeof(float));
    for (int t = 1; t < nthreads; t++) {
        counts[t] = counts[t - 1] + NCLUST;
        sums[t] = sums[t - 1] + NCLUST;
    }
    for (int t = 0; t < nthreads; t++)
        for (int c = 0; c < NCLUST; c++)
            sums[t][c] = sums[0][0] + (t * NCLUST + c) * NFEAT;
    for (int round = 0; round < 4; round++) {
#pragma omp parallel
        {
            int tid = omp_get_thread_num();
#pragma omp for schedule(static)
            for (int i = 0; i < NPOINTS; i++) {
                int index = nearest(feature[i], centers);
                membership[i] = index;
                counts[tid][index]++;
                for (int j = 0; j < NFEAT; j++)
                    sums[tid][index][j] += feature[i][j];
            }
        }
        for (int c = 0; c < NCLUST; c++) {
            int n = 0;
            for (int t = 0; t < nthreads; t++) {
                n += counts[t][c];
                counts[t][c] = 0;
            }
            for (int j = 0; j < NFEAT; j++) {
                float s = 0.0f;
                for (int t = 0; t < nthreads; t++) {
                    s += sums[t][c][j];
                    sums[t][c][j] = 0.0f;
                }
                if (n > 0)
                    centers[c][j] = s / n;
            }
        }
    }
    free(sums[0][0]);
    free(sums[0]);
    free(sums);
    free(counts[0]);
    free(counts);
}

static long histogram(void)
{
    int nthreads = omp_get_max_threads();
    long **hist = malloc(sizeof(long *) * nthreads);
    for (int t = 0; t < nthreads; t++)
        hist[t] = calloc(NBINS, sizeof(long));
#pragma omp parallel
    {
        int me = omp_get_thread_num();
#pragma omp for schedule(static) nowait
        for (int i = 0; i < NPOINTS; i++)
            hist[me][values[i] % NBINS] += values[i];
    }
    long check = 0;
    for (int b = 0; b < NBINS; b++) {
        long total = 0;
        for (int t = 0; t < nthreads; t++)
            total = total + hist[t][b];
        check = check * 7 + total;
    }
    for (int t = 0; t < nthreads; t++)
        free(hist[t]);
    free(hist);
    return check;
}

int main(void)
{
    float centers[NCLUST][NFEAT];
    for (int i = 0; i < NPOINTS; i++) {
        values[i] = (i * 7919) % 1000;
        for (int j = 0; j < NFEAT; j++)
            feature[i][j] = (float)(((i + 3) * (j + 11) * 2654435761u) % 1000) / 10.0f;
    }
    for (int c = 0; c < NCLUST; c++)
        for (int j = 0; j < NFEAT; j++)
            centers[c][j] = feature[c * 101][j];
    cluster(centers);
    long h = 0;
    for (int i = 0; i < NPOINTS; i++)
        h = h * 31 + membership[i];
    printf("%ld %.2f %ld\n", h, centers[0][0], histogram());
    return 0;
}

/* Per-thread rows summed into a total that shows the rows one by one: each thread's
 * count is also added into an element of its own (sum[t]), which then moves a centre:
 * it depends on which points each thread ran. Kept as written. */
#include <float.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define NPOINTS 3000
#define NFEAT 4
#define K 5

static float feature[NPOINTS][NFEAT];
static float clusters[K][NFEAT];
static int membership[NPOINTS];

static int find_nearest(const float *pt, float (*c)[NFEAT], int k)
{
    int index = 0;
    float min_dist = FLT_MAX;
    for (int i = 0; i < k; i++) {
        float d = 0.0f;
        for (int j = 0; j < NFEAT; j++)
            d += (pt[j] - c[i][j]) * (pt[j] - c[i][j]);
        if (d < min_dist) {
            min_dist = d;
            index = i;
        }
    }
    return index;
}

int main(void)
{
    for (int i = 0; i < NPOINTS; i++)
        for (int j = 0; j < NFEAT; j++)
            feature[i][j] = (float)((i * 31 + j * 7) % 101);
    for (int c = 0; c < K; c++)
        for (int j = 0; j < NFEAT; j++)
            clusters[c][j] = feature[c * 7][j];
    int nthreads = omp_get_max_threads();
    int **partial_len = malloc(nthreads * sizeof(int *));
    float ***partial_centers = malloc(nthreads * sizeof(float **));
    for (int t = 0; t < nthreads; t++) {
        partial_len[t] = calloc(K, sizeof(int));
        partial_centers[t] = malloc(K * sizeof(float *));
        for (int c = 0; c < K; c++)
            partial_centers[t][c] = calloc(NFEAT, sizeof(float));
    }
    int delta = 0;
    for (int loop = 0; loop < 4; loop++) {
        delta = 0;
#pragma omp parallel
        {
            int tid = omp_get_thread_num();
#pragma omp for schedule(static) reduction(+ : delta)
            for (int i = 0; i < NPOINTS; i++) {
                int index = find_nearest(feature[i], clusters, K);
                if (membership[i] != index)
                    delta++;
                membership[i] = index;
                partial_len[tid][index]++;
                for (int j = 0; j < NFEAT; j++)
                    partial_centers[tid][index][j] += feature[i][j];
            }
        }
        for (int c = 0; c < K; c++) {
            int len = 0;
            float sum[NFEAT] = {0};
            for (int t = 0; t < nthreads && t < NFEAT; t++) {
                sum[t] += partial_len[t][c];
                len += partial_len[t][c];
                partial_len[t][c] = 0;
                for (int j = 0; j < NFEAT; j++) {
                    sum[j] += partial_centers[t][c][j];
                    partial_centers[t][c][j] = 0.0f;
                }
            }
            if (len > 0)
                for (int j = 0; j < NFEAT; j++)
                    clusters[c][j] = sum[j] / len;
        }
    }
    long s = 0;
    for (int i = 0; i < NPOINTS; i++)
        s += membership[i] * (i % 7);
    printf("%d %ld %d\n", delta, s, partial_len[0][0]);
    return 0;
}

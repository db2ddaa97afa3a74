/* Rodinia hotspot3D's way: the time loop inside one parallel region, each thread with
   its own copies of the grid pointers, exchanged by every thread after the worksharing
   loop's barrier (equally often, so every thread's copies agree); the cell index set in
   a separate statement, and index variables called t and b beside the pointer
   temporary t. */
#include <stdio.h>
#include <stdlib.h>

static void sweep(float *pIn, float *tIn, float *tOut, int nx, int ny, int nz, int steps)
{
#pragma omp parallel
    {
        int count = 0;
        float *tIn_t = tIn;
        float *tOut_t = tOut;
        do {
            int z;
#pragma omp for
            for (z = 0; z < nz; z++) {
                int y;
                for (y = 0; y < ny; y++) {
                    int x;
                    for (x = 0; x < nx; x++) {
                        int c, w, e, b, t;
                        c = x + y * nx + z * nx * ny;
                        w = (x == 0) ? c : c - 1;
                        e = (x == nx - 1) ? c : c + 1;
                        b = (z == 0) ? c : c - nx * ny;
                        t = (z == nz - 1) ? c : c + nx * ny;
                        tOut_t[c] = 0.4f * tIn_t[c] + 0.15f * (tIn_t[w] + tIn_t[e] + tIn_t[b] + tIn_t[t])
                                    + 0.01f * pIn[c];
                    }
                }
            }
            float *t = tIn_t;
            tIn_t = tOut_t;
            tOut_t = t;
            count++;
        } while (count < steps);
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 24, layers = argc > 2 ? atoi(argv[2]) : 6;
    int size = n * n * layers;
    float *power = calloc(size, sizeof(float)), *a = calloc(size, sizeof(float));
    float *b = calloc(size, sizeof(float));
    for (int i = 0; i < size; i++) {
        power[i] = (i % 13) * 0.5f;
        a[i] = 300.0f + i % 11;
    }
    sweep(power, a, b, n, n, layers, 5);
    double s = 0.0;
    for (int i = 0; i < size; i++)
        s += (double)b[i] * (i % 5 + 1) + a[i];
    printf("%.3f\n", s);
    free(power);
    free(a);
    free(b);
    return 0;
}

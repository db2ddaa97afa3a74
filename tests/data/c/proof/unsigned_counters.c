/* Unsigned loop counters and indices, as many codes write them: a 5-point update of a
   flattened grid with unsigned neighbours (i - 1 wraps only below zero, never here)
   and a stride permutation whose odd multiplier stays below 2^32. Independent. */
#include <stdio.h>
#define NX 60
#define NY 50
#define N 1024
double u[NX * NY], v[NX * NY];
int perm[N];
int main(void)
{
    for (unsigned k = 0; k < NX * NY; k++) v[k] = k % 17;
#pragma omp parallel for
    for (unsigned i = 1; i < NX - 1; i++)
        for (unsigned j = 1; j < NY - 1; j++)
            u[i * NY + j] = v[(i - 1) * NY + j] + v[(i + 1) * NY + j]
                          + v[i * NY + j - 1] + v[i * NY + j + 1];
#pragma omp parallel for
    for (unsigned i = 0; i < N; i++) {
        unsigned slot = (i * 77u) % N;
        perm[slot] = (int)i;
    }
    double t = 0;
    for (int i = 0; i < NX * NY; i++) t += u[i] * (i + 1);
    for (int i = 0; i < N; i++) t += perm[i] * (double)i;
    printf("%.17g\n", t);
    return 0;
}

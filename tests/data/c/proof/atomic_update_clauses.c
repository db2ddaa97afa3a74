/* Atomic updates written with the construct's clauses, as graph and particle codes do:
   'atomic update' (OpenMP 3.1's explicit form), with a memory order (5.0's relaxed,
   seq_cst), and the order before the clause. Any order of the increments leaves one
   count. */
#include <stdio.h>

#define NV 4096
#define NE 32768

static int src[NE], dst[NE];
static long indeg[NV], outdeg[NV], hits[64];
static double w[NE];

int main(void)
{
    int e, v;
    for (e = 0; e < NE; e++) {
        src[e] = (e * 7919) % NV;
        dst[e] = (e * 40503 + 13) % NV;
        w[e] = (e % 101) * 0.01;
    }
#pragma omp parallel for
    for (e = 0; e < NE; e++) {
#pragma omp atomic update
        indeg[dst[e]]++;
#pragma omp atomic update relaxed
        outdeg[src[e]] += 1;
    }
#pragma omp parallel for schedule(static)
    for (e = 0; e < NE; e++) {
        int b = (int)(w[e] * 63.0);
#pragma omp atomic seq_cst update
        hits[b] += 2;
    }
    long sum = 0;
    for (v = 0; v < NV; v++)
        sum += indeg[v] * (v % 13) + outdeg[v] * (v % 7);
    for (v = 0; v < 64; v++)
        sum += hits[v] * v;
    printf("degree checksum %ld\n", sum);
    return 0;
}

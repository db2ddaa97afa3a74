/* Counting with gcc's atomic builtins and C11 <stdatomic.h>, as graph and Monte Carlo
   codes do: degrees of a CSR build, a histogram, a count of samples above a threshold.
   No result of an atomic add is used, so any order of the adds gives the same counts. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#define NV 2000
#define NE 24000
#define NB 16

static int src[NE], dst[NE];
static long degree[NV];
static atomic_long hist[NB];
static long above, nnz;

int main(void) {
  unsigned s = 12345u;
  for (int e = 0; e < NE; e++) {
    s = s * 1103515245u + 12345u;
    src[e] = (int)((s >> 8) % NV);
    s = s * 1103515245u + 12345u;
    dst[e] = (int)((s >> 8) % NV);
  }
#pragma omp parallel for
  for (int e = 0; e < NE; e++) {
    __sync_fetch_and_add(&degree[src[e]], 1);
  }
#pragma omp parallel for schedule(static)
  for (int e = 0; e < NE; e++) {
    int bin = (src[e] + dst[e]) % NB;
    atomic_fetch_add_explicit(&hist[bin], 1, memory_order_relaxed);
  }
#pragma omp parallel for
  for (int v = 0; v < NV; v++) {
    if (degree[v] > NE / NV) __sync_add_and_fetch(&above, 1);
    (void)__atomic_fetch_add(&nnz, degree[v] > 0 ? degree[v] : 0, __ATOMIC_RELAXED);
  }
  long total = 0;
  for (int b = 0; b < NB; b++) total += hist[b];
  printf("degree[7] = %ld, above = %ld, nnz = %ld, hist = %ld\n", degree[7], above, nnz,
         total);
  return 0;
}

/* Rows of per-thread partials added each at a place of its own, though a loop runs over
   all of them: the total's subscript stepped in each pass (j++), or set in the pass.
   Each loop is kept as written. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#define N 4000
static double x[N];
static double per[64];
int main(void) {
  for (int i = 0; i < N; i++) x[i] = i % 13;
  int nt = omp_get_max_threads();
  double *part = calloc(nt, sizeof(double));
  double *part2 = calloc(nt, sizeof(double));
#pragma omp parallel
  {
    int tid = omp_get_thread_num();
#pragma omp for
    for (int i = 0; i < N; i++) part[tid] += x[i] * (i % 3);
#pragma omp for
    for (int i = 0; i < N; i++) part2[tid] += x[i] * (i % 5);
  }
  int j = 0;
  for (int t = 0; t < nt; t++) per[j++] += part[t];
  int k = 0;
  for (int t = 0; t < nt; t++) { per[k] += part2[t]; k = k + 1; }
  printf("%.1f %.1f\n", per[0], per[1]);
  return 0;
}

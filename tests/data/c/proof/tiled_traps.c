/* Tiles that are not disjoint: one element too many, a lower bound reaching back, and a
   "min" whose branches make it a max. */
#include <stdio.h>
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define N 500
#define BS 32
static double a[N + 64], b[N + 64];
int main(void) {
  for (int i = 0; i < N + 64; i++) b[i] = (i % 13) * 0.5;
  /* tiles that overlap: each tile runs BS + 1 elements */
  #pragma omp parallel for
  for (int ii = 0; ii < N; ii += BS)
    for (int i = ii; i < MIN(ii + BS + 1, N); i++)
      a[i] = a[i] * 0.5 + b[i] + ii;
  /* MAX as lower bound reaching back into the previous tile */
  #pragma omp parallel for
  for (int ii = 0; ii < N; ii += BS)
    for (int i = MAX(ii - 1, 0); i < MIN(ii + BS, N); i++)
      b[i] = b[i] * 0.5 + ii;
  /* a min that is not a min: a < b ? b : a is the max */
  #pragma omp parallel for
  for (int ii = 0; ii < N; ii += BS)
    for (int i = ii; i < (ii + BS < 40 ? 40 : ii + BS); i++)
      a[i] = a[i] * 0.25 + ii;
  double s = 0; for (int i = 0; i < N + 64; i++) s += a[i] * (i % 7) + b[i];
  printf("%.3f\n", s);
  return 0;
}

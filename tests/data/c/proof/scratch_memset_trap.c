/* The same scratch cleared only in its first half (sizeof hist / 2). */
#include <stdio.h>
#include <string.h>
#define N 2000
#define B 64
static double x[N][B], out[N];
int main(void) {
  double hist[B];
  memset(hist, 0, sizeof hist);
  for (int i = 0; i < N; i++) for (int j = 0; j < B; j++) x[i][j] = ((i * 31 + j * 7) % 97) * 0.01;
  /* clears only the first half: the upper half carries over between a thread's rows */
  #pragma omp parallel for firstprivate(hist)
  for (int i = 0; i < N; i++) {
    memset(hist, 0, sizeof hist / 2);
    for (int j = 0; j < B; j++) hist[(j * 5) % B] += x[i][j];
    double m = 0;
    for (int j = 0; j < B; j++) if (hist[j] > m) m = hist[j];
    out[i] = m;
  }
  double s = 0; for (int i = 0; i < N; i++) s += out[i] * (i % 3 + 1);
  printf("%.9f\n", s);
  return 0;
}

/* A thread's block that escapes: handed to a helper that keeps it in a global the loop
   reads back, and moved by realloc in the loop. Each loop is kept as written. */
#include <stdio.h>
#include <stdlib.h>
#define N 2000
#define W 8
static double in[N][W], out[N];
static double *last;
static void remember(double *p, int k) { last = p; p[0] = k; }
static void use(double *p, const double *row) { for (int k = 0; k < W; k++) p[k] = row[k]; }
int main(void) {
  for (int i = 0; i < N; i++) for (int k = 0; k < W; k++) in[i][k] = (i + k) % 5;
#pragma omp parallel
  {
    double *w = malloc(sizeof(double) * W);
#pragma omp for
    for (int i = 0; i < N; i++) {
      use(w, in[i]);
      remember(w, i);
      out[i] = last[0] + w[1];
    }
    free(w);
  }
#pragma omp parallel
  {
    double *w = malloc(sizeof(double) * W);
#pragma omp for
    for (int i = 0; i < N; i++) {
      w = realloc(w, sizeof(double) * (W + i % 3));
      use(w, in[i]);
      out[i] += w[2];
    }
    free(w);
  }
  double s = 0; for (int i = 0; i < N; i++) s += out[i];
  printf("%.1f\n", s);
  return 0;
}

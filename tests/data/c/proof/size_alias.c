/* An offset read from memory the loop itself writes through another name: the size
   is not a parameter of the iterations. */
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  int n = 1000;
  int *off = malloc(n * sizeof *off);
  int *alias = off;
  double *a = calloc(4 * n, sizeof *a);
  for (int i = 0; i < n; i++) off[i] = 3;
  #pragma omp parallel for
  for (int i = 0; i < n; i++) {
    a[off[1] + i] = i;
    alias[i] = i % 5;
  }
  double s = 0; for (int i = 0; i < 4 * n; i++) s += a[i] * i;
  printf("%f\n", s);
  return 0;
}

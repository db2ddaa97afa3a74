/* A proxy-app idiom: the loop header written twice, once for OpenMP builds and once for
 * serial ones, around one body; and a flat offset bound with a cast, as codes that index
 * past 2^31 write it. Sized from argv: only a profile run knows the trip counts. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static double dot_halves(const double *v, int n)
{
  double s = 0.0;
#if defined(_OPENMP)
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) {
#else
  for (int i = 0; i < n; i++) {
#endif
    s += v[i] * v[n + i];
  }
  return s;
}

int main(int argc, char **argv)
{
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  double *v = malloc(sizeof(double) * 2 * (size_t)n);
  if (v == NULL)
    return 1;
#pragma omp parallel for
  for (uint64_t ofs = 0; ofs < (uint64_t)n * 2; ofs++)
    v[ofs] = (double)(ofs % 13) * 0.25;
  printf("%.6f\n", dot_halves(v, n));
  free(v);
  return 0;
}

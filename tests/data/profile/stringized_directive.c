/* Directives written through a stringizing macro, as multigrid and proxy codes do
 * (PRAGMA(x) _Pragma(#x)), beside a plain one; sized from argv. */
#include <stdio.h>
#include <stdlib.h>

#define PRAGMA(x) _Pragma(#x)
#define OMP_PARALLEL_FOR(clauses) PRAGMA(omp parallel for clauses)

static void smooth(double *restrict out, const double *restrict in, int n)
{
  OMP_PARALLEL_FOR(schedule(static))
  for (int i = 1; i < n - 1; i++)
    out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3.0;
}

static void scale(double *restrict x, double f, int n)
{
  PRAGMA(omp parallel for)
  for (int i = 0; i < n; i++)
    x[i] *= f;
}

int main(int argc, char **argv)
{
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  double *a = malloc(sizeof(double) * n), *b = calloc(n, sizeof(double));
  if (a == NULL || b == NULL)
    return 1;
  for (int i = 0; i < n; i++)
    a[i] = i % 17;
  smooth(b, a, n);
  scale(b, 0.5, n);
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += b[i];
  printf("%.6f\n", s);
  free(a);
  free(b);
  return 0;
}

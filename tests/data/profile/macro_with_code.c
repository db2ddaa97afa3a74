/* A macro that makes a directive and code after it: its invocation fills the line, but
 * replacing it by the _Pragma alone would drop the counter update. Kept as written; the
 * plain loop beside it is still profiled. */
#include <stdio.h>
#include <stdlib.h>

#define PRAGMA(x) _Pragma(#x)
#define COUNTED_FOR(counter) counter += 1; PRAGMA(omp parallel for)

int main(int argc, char **argv)
{
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  int sweeps = 0;
  double *a = malloc(sizeof(double) * n);
  if (a == NULL)
    return 1;
  COUNTED_FOR(sweeps)
  for (int i = 0; i < n; i++)
    a[i] = 0.5 * i;
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += a[i];
  printf("%d %.3f\n", sweeps, s);
  free(a);
  return 0;
}

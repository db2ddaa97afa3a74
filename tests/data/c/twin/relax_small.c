/* Many relaxation sweeps over a small ring, all in one parallel region (the threads are
   started once; each sweep is a worksharing loop and its barrier), as iterative solvers
   on coarse grids are written. */
#include <stdio.h>
#include <stdlib.h>

#define N 64

static double u[N], w[N];

int main(int argc, char **argv)
{
  int sweeps = argc > 1 ? atoi(argv[1]) : 100000;
  for (int i = 0; i < N; i++)
    u[i] = (double)(i % 5);
#pragma omp parallel
  for (int s = 0; s < sweeps; s++) {
#pragma omp for
    for (int i = 0; i < N; i++)
      w[i] = 0.5 * u[i] + 0.25 * (u[(i + N - 1) % N] + u[(i + 1) % N]);
#pragma omp single
    for (int i = 0; i < N; i++)
      u[i] = w[i];
  }
  double sum = 0.0;
  for (int i = 0; i < N; i++)
    sum += u[i];
  printf("%.10f\n", sum);
  return 0;
}

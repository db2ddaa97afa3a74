/* A 1-D Jacobi relaxation as textbooks and mini-apps write it: each time step computes
   the new values in one parallel loop and copies them back in another. */
#include <stdio.h>
#include <stdlib.h>

#define N 20000

static double u[N], unew[N];

int main(int argc, char **argv)
{
  int steps = argc > 1 ? atoi(argv[1]) : 400;
  for (int i = 0; i < N; i++)
    u[i] = (i % 100 == 0) ? 1.0 : 0.0;
  for (int t = 0; t < steps; t++) {
#pragma omp parallel for
    for (int i = 1; i < N - 1; i++)
      unew[i] = 0.5 * u[i] + 0.25 * (u[i - 1] + u[i + 1]);
#pragma omp parallel for
    for (int i = 1; i < N - 1; i++)
      u[i] = unew[i];
  }
  double sum = 0.0;
  for (int i = 0; i < N; i++)
    sum += u[i] * (i % 7);
  printf("%.10f\n", sum);
  return 0;
}

/* Alternating-direction sweeps in the style of PolyBench's adi and of line-implicit
   solvers: every time step runs a row sweep and a column sweep, each its own team. */
#include <stdio.h>
#include <stdlib.h>

#define N 256
#define TSTEPS 50

static double u[N][N], v[N][N];

static void init(void)
{
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      u[i][j] = (double)((i * j) % 7) / N;
}

static void sweeps(int tsteps)
{
  for (int t = 0; t < tsteps; t++) {
#pragma omp parallel for
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++)
        v[i][j] = 0.25 * (u[i][j - 1] + 2.0 * u[i][j] + u[i][j + 1]);
#pragma omp parallel for num_threads(2)
    for (int j = 1; j < N - 1; j++)
      for (int i = 1; i < N - 1; i++)
        u[i][j] = 0.25 * (v[i - 1][j] + 2.0 * v[i][j] + v[i + 1][j]);
  }
}

static double norm(void)
{
  double s = 0.0;
#pragma omp parallel
  for (int k = 0; k < 4; k++) {
#pragma omp for reduction(+ : s)
    for (int i = 0; i < N; i++)
      s += u[i][k];
  }
  return s;
}

int main(int argc, char **argv)
{
  int tsteps = argc > 1 ? atoi(argv[1]) : TSTEPS;
  init();
  sweeps(tsteps);
  printf("%.6f\n", norm());
  return 0;
}

/* A proxy-app time step in the style of LULESH: the step calls one function per
   phase, each with its own parallel loop over the mesh. */
#include <stdio.h>
#include <stdlib.h>

#define NODES 4096

static double x[NODES], v[NODES], f[NODES];
static double dt = 1e-3;

static void calc_force(void)
{
#pragma omp parallel for
  for (int i = 1; i < NODES - 1; i++)
    f[i] = x[i - 1] - 2.0 * x[i] + x[i + 1];
}

static void calc_velocity(void)
{
#pragma omp parallel for
  for (int i = 0; i < NODES; i++)
    v[i] += dt * f[i];
}

static void calc_position(void)
{
#pragma omp parallel for num_threads(4)
  for (int i = 0; i < NODES; i++)
    x[i] += dt * v[i];
}

static double energy(void)
{
  double e = 0.0;
#pragma omp parallel for reduction(+ : e)
  for (int i = 0; i < NODES; i++)
    e += v[i] * v[i];
  return e;
}

static void lagrange_leapfrog(void)
{
  calc_force();
  calc_velocity();
  calc_position();
}

int main(int argc, char **argv)
{
  int steps = argc > 1 ? atoi(argv[1]) : 100;
  for (int i = 0; i < NODES; i++)
    x[i] = (double)(i % 17) / 17.0;
  for (int s = 0; s < steps; s++) {
    lagrange_leapfrog();
    if (s % 10 == 0)
      printf("step %d energy %.6e\n", s, energy());
  }
  printf("final %.6e\n", energy());
  return 0;
}

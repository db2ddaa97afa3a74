/* The address of storage each thread has its own, kept per item: which thread ran the
 * item shows in the result (a scratch row's address as a number, a pointer to it stored). */
#include <stdint.h>
#include <stdio.h>

#define N 4000
static uintptr_t where[N];
static double *owner[N];
static double out[N];

int main(void)
{
#pragma omp parallel
  {
    double scratch[4];
#pragma omp for
    for (int i = 0; i < N; i++) {
      scratch[0] = i;
      where[i] = (uintptr_t)&scratch[0];
    }
#pragma omp for
    for (int i = 0; i < N; i++) {
      scratch[1] = 0.5 * i;
      owner[i] = scratch;
      out[i] = scratch[1];
    }
  }
  int changes = 0;
  for (int i = 1; i < N; i++)
    changes += (where[i] != where[i - 1]) + (owner[i] != owner[i - 1]);
  double s = 0;
  for (int i = 0; i < N; i++)
    s += out[i];
  printf("%d %.1f\n", changes, s);
  return 0;
}

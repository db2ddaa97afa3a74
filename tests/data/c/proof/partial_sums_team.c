/* Each thread's integer share of a histogram count added into the total under a
 * critical section, as hand-written reductions do: started at 0, the total is the same
 * for any team. Started at 1, every thread adds one more: the team shows. The same in
 * floating point: a sum from 0.0 regrouped by another team (here of whole numbers, so
 * exactly), and one from 1.0, which the team shows. */
#include <stdio.h>

#define N 6000
static long key[N];

int main(void)
{
  for (int i = 0; i < N; i++)
    key[i] = (i * 7919) % 64;
  long total = 0, seeded = 0;
#pragma omp parallel
  {
    long mine = 0;
#pragma omp for
    for (int i = 0; i < N; i++)
      mine += key[i] * key[i];
#pragma omp critical
    total += mine;
  }
#pragma omp parallel
  {
    long share = 1;
#pragma omp for
    for (int i = 0; i < N; i++)
      share += key[i];
#pragma omp critical
    seeded += share;
  }
  double weight = 0.0, biased = 0.0;
#pragma omp parallel
  {
    double part = 0.0;
#pragma omp for
    for (int i = 0; i < N; i++)
      part += 0.5 * key[i];
#pragma omp critical
    weight += part;
  }
#pragma omp parallel
  {
    double part = 1.0;
#pragma omp for
    for (int i = 0; i < N; i++)
      part += key[i];
#pragma omp critical
    biased += part;
  }
  printf("%ld %ld %.1f %.1f\n", total, seeded, weight, biased);
  return 0;
}

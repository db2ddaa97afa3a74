/* A firstprivate table some iterations rewrite: a thread's copy then holds what the
 * last such iteration it ran wrote. */
#include <stdio.h>

#define N 6000
static double out[N];

int main(void)
{
  double coef[4] = {0.5, 0.25, 0.125, 0.0625};
#pragma omp parallel for firstprivate(coef)
  for (int i = 0; i < N; i++) {
    if (i % 250 == 0)
      coef[i % 4] = 0.001 * i;
    out[i] = coef[i % 4] * i;
  }
  double s = 0;
  for (int i = 0; i < N; i++)
    s += out[i];
  printf("%.4f\n", s);
  return 0;
}

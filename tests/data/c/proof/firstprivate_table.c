/* A small coefficient table copied into each thread (firstprivate) and only read: every
 * thread's copy holds the original's values, whatever iterations it runs. */
#include <stdio.h>

#define N 6000
static double out[N];

int main(void)
{
  double coef[4] = {0.5, 0.25, 0.125, 0.0625};
#pragma omp parallel for firstprivate(coef)
  for (int i = 0; i < N; i++)
    out[i] = coef[i % 4] * i + coef[(i + 1) % 4];
  double s = 0;
  for (int i = 0; i < N; i++)
    s += out[i];
  printf("%.4f\n", s);
  return 0;
}

/* A pointer into a thread's own scratch row, used only to reach its elements, and a
 * number cast from the loop variable: neither shows which thread ran an iteration. */
#include <stdio.h>

#define N 4000
static double out[N];
static long slot[N];

int main(void)
{
#pragma omp parallel
  {
    double scratch[4];
#pragma omp for
    for (int i = 0; i < N; i++) {
      double *p = &scratch[0];
      double t = i * 0.5;
      p[0] = t;
      p[1] = t + 1;
      out[i] = p[0] + p[1];
      slot[i] = (long)i;
    }
  }
  double s = 0;
  for (int i = 0; i < N; i++)
    s += out[i] + slot[i];
  printf("%.1f\n", s);
  return 0;
}

/* Each record parsed with the usual errno idiom: clear it, parse, test it, all in one
 * iteration. errno is each thread's own, so the test sees this iteration's parse. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#define N 3000
static char text[N][24];
static double value[N];
static int overflowed[N];

int main(void)
{
  for (int i = 0; i < N; i++)
    snprintf(text[i], sizeof text[i], i % 97 ? "%d.25" : "1e999", i);
#pragma omp parallel for
  for (int i = 0; i < N; i++) {
    char *end;
    errno = 0;
    double x = strtod(text[i], &end);
    if (errno == ERANGE) {
      overflowed[i] = 1;
      x = 0.0;
    }
    value[i] = x;
  }
  double s = 0;
  int bad = 0;
  for (int i = 0; i < N; i++) {
    s += value[i];
    bad += overflowed[i];
  }
  printf("%.3f %d\n", s, bad);
  return 0;
}

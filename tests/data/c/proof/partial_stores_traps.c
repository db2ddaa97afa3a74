/* Library calls whose stores depend on the input: a scanner leaves a target as it was
 * when the record lacks its field, and a formatter defines its buffer only up to the
 * terminator. A thread's own copy then carries what an earlier iteration left. */
#include <stdio.h>
#include <string.h>

#define N 3000
static char records[N][32];
static double value[N];
static unsigned long bucket[N];

int main(void)
{
  for (int i = 0; i < N; i++) {
    if (i % 3 == 0)
      snprintf(records[i], sizeof records[i], "%d %d", i, 7 * i);
    else
      snprintf(records[i], sizeof records[i], "%d", i);
  }
  int id, weight = 0;
#pragma omp parallel for private(id) firstprivate(weight)
  for (int i = 0; i < N; i++) {
    sscanf(records[i], "%d %d", &id, &weight);
    value[i] = id + 0.001 * weight;
  }
  char key[24];
  memset(key, '.', sizeof key);
#pragma omp parallel for firstprivate(key)
  for (int i = 0; i < N; i++) {
    snprintf(key, sizeof key, "k%d", i);
    unsigned long h = 5381;
    for (int c = 0; c < (int)sizeof key; c++)
      h = h * 33 + (unsigned char)key[c];
    bucket[i] = h % 1024;
  }
  double s = 0;
  unsigned long t = 0;
  for (int i = 0; i < N; i++) {
    s += value[i] * (i % 5);
    t += bucket[i] * (unsigned long)(i + 1);
  }
  printf("%.6f %lu\n", s, t);
  return 0;
}

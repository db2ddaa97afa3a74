/* Exits that only some teams take: a message and exit under a test of the thread's number,
   in a loop from it, and under an outer test of it. Each region's loop is kept. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#define N 1000
static double a[N];
int main(void) {
#pragma omp parallel
  {
    int tid = omp_get_thread_num();
    if (tid == 3) {
      fprintf(stderr, "a fourth thread is not supported\n");
      exit(1);
    }
#pragma omp for
    for (int i = 0; i < N; i++) a[i] = i * 0.5;
  }
#pragma omp parallel
  {
    int tid = omp_get_thread_num();
    for (int k = tid; k < 3; k++)
      if (a[k] < 0) {
        fprintf(stderr, "bad\n");
        exit(2);
      }
    if (tid > 2) {
      if (a[0] >= 0) {
        fprintf(stderr, "too many threads\n");
        exit(3);
      }
    }
#pragma omp for
    for (int i = 0; i < N; i++) a[i] += 1.0;
  }
  printf("%.1f\n", a[N - 1]);
  return 0;
}

/* C11 _Atomic objects used in ways whose result follows the order of the threads: a
   load and a store written as x = x + v (two atomic operations, not one), a running
   count read back in the loop, and an add and a multiply of one word. */
#include <stdatomic.h>
#include <stdio.h>

#define N 4096

static int level[N];
static _Atomic long total, count;
static atomic_long word = 1;

int main(void) {
  for (int i = 0; i < N; i++) level[i] = i % 5;
#pragma omp parallel for
  for (int i = 0; i < N; i++) {
    total = total + level[i];
  }
#pragma omp parallel for
  for (int i = 0; i < N; i++) {
    count++;
    if (count > N / 2) level[i] = 0;
  }
#pragma omp parallel for
  for (int i = 0; i < 40; i++) {
    if (i % 2) word += 3;
    else word *= 2;
  }
  long zero = 0;
  for (int i = 0; i < N; i++) zero += level[i] == 0;
  printf("%ld %ld %ld\n", (long)total, zero, (long)word);
  return 0;
}

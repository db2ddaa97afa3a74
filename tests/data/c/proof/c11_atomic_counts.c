/* Counts kept in C11 _Atomic objects updated with plain operators, as C11 code written
   without OpenMP's atomic construct does: a histogram of _Atomic bins, an atomic_long
   counter under a condition, a total through a pointer to an atomic. C11 makes each
   compound assignment and increment one atomic read-modify-write. */
#include <stdatomic.h>
#include <stdio.h>

#define N 20000
#define NB 16

static int key[N];
static _Atomic long hist[NB];
static atomic_long hits;
static _Atomic long total;

static void add_to(_Atomic long *sum, long v) { *sum += v; }

int main(void) {
  for (int i = 0; i < N; i++) key[i] = (i * 7919) % 1000;
#pragma omp parallel for
  for (int i = 0; i < N; i++) {
    hist[key[i] % NB] += 1;
    if (key[i] > 500) hits++;
  }
#pragma omp parallel for schedule(static)
  for (int i = 0; i < N; i++) add_to(&total, key[i]);
  long t = 0;
  for (int b = 0; b < NB; b++) t += hist[b];
  printf("%ld %ld %ld\n", t, (long)hits, (long)total);
  return 0;
}

/* Atomic builtins whose order shows: a BFS frontier whose slots are handed out in the
   order threads arrive, a counter read while others add to it, and two kinds of atomic
   update of one word that do not commute with each other. */
#include <stdio.h>

#define N 4096

static int queue[N], level[N];
static int tail, seen, next, order[N];
static unsigned mask;
/* a claim written as a statement expression: its value is the fetched count */
#define CLAIM(p) ({ __sync_fetch_and_add((p), 1); })

int main(void) {
  for (int v = 0; v < N; v++) level[v] = v % 3;
#pragma omp parallel for
  for (int v = 0; v < N; v++) {
    if (level[v] == 1) {
      int slot = __sync_fetch_and_add(&tail, 1);
      queue[slot] = v;
    }
  }
#pragma omp parallel for
  for (int v = 0; v < N; v++) {
    __atomic_fetch_add(&seen, 1, __ATOMIC_RELAXED);
    if (seen > N / 2) level[v] = 0;
  }
#pragma omp parallel for
  for (int v = 0; v < 64; v++) {
    if (v % 2) __sync_fetch_and_add(&mask, 1u << (v % 32));
    else __sync_fetch_and_or(&mask, 1u << (v % 32));
  }
#pragma omp parallel for
  for (int v = 0; v < N; v++) {
    if (level[v] == 2) order[v] = CLAIM(&next);
  }
  long first = 0;
  for (int k = 0; k < 8; k++) first += (long)queue[k] * (k + 1) + order[k];
  int zero = 0;
  for (int v = 0; v < N; v++) zero += level[v] == 0;
  printf("%d %ld %d %u\n", tail, first, zero, mask);
  return 0;
}

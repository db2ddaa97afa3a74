/* Pointers a library call finds inside its argument, then stored through: every
   iteration writes the one place strchr, strstr or memchr finds in one shared line, and
   bsearch finds one table entry for many keys (the last store wins). Each is kept. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 2000

static char line[64] = "key:value;other:thing";
static int table[256];
static int keys[N];
static long hits[N];

static int cmp_int(const void *x, const void *y) {
  int p = *(const int *)x, q = *(const int *)y;
  return (p > q) - (p < q);
}

int main(void) {
  for (int k = 0; k < 256; k++) table[k] = 2 * k;
  for (int i = 0; i < N; i++) keys[i] = 2 * ((i * 37) % 256);
  /* every iteration writes the byte strchr finds in the one shared line */
#pragma omp parallel for
  for (int i = 0; i < N; i++) {
    char *colon = strchr(line, ':');
    if (colon) *colon = (char)('a' + i % 26);
  }
  /* strstr: the same */
#pragma omp parallel for
  for (int i = 0; i < N; i++) {
    char *at = strstr(line, "ther");
    if (at) at[1] = (char)('A' + i % 26);
  }
  /* bsearch finds one table entry for many keys: the last store wins */
#pragma omp parallel for
  for (int i = 0; i < N; i++) {
    int *hit = bsearch(&keys[i], table, 256, sizeof table[0], cmp_int);
    if (hit) *hit = 2 * (keys[i] / 2) + (i > N / 2);
  }
  /* memchr into the line */
#pragma omp parallel for
  for (int i = 0; i < N; i++) {
    char *semi = memchr(line, ';', sizeof line);
    if (semi) hits[i] = semi - line, *semi = (char)('0' + i % 10);
  }
  long s = 0;
  for (int k = 0; k < 256; k++) s += table[k] * (k + 1);
  printf("%s %ld %ld\n", line, s, hits[N - 1]);
  return 0;
}

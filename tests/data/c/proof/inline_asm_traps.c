/* Inline assembly in hand-tuned loops: a running sum a thread keeps in a register
   operand, a compiler barrier, a basic asm under a condition. The proof cannot see what
   an asm statement reads or writes, so each loop stays as written. */
#include <math.h>
#include <stdio.h>

#define N 1000
static double out[N];
long checksum(void) __asm__("checksum_v2");
long checksum(void) { return 7; }

int main(void) {
  long carry = 0;
#pragma omp parallel for schedule(static) firstprivate(carry)
  for (int i = 0; i < N; i++) {
    __asm__("addq %1, %0" : "+r"(carry) : "r"((long)i));
    out[i] = (double)carry;
  }
#pragma omp parallel for
  for (int i = 0; i < N; i++) {
    asm volatile("" ::: "memory");
    out[i] += sqrt((double)i);
  }
#pragma omp parallel for
  for (int i = 0; i < N; i++) {
    if (i % 2) asm("nop");
    out[i] *= 2.0;
  }
  double s = 0.0;
  for (int i = 0; i < N; i++) s += out[i] * (i % 5);
  printf("%.3f %ld\n", s, checksum());
  return 0;
}

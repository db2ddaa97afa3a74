/* Two scatters whose subscripts wrap: a byte-sized hash of the iteration number
   (a bucket table) and a 16-bit ring-buffer slot. Iterations i and i + 256 (i and
   i + 65536) write one element, so which value is left depends on which thread runs
   the later iteration last. */
#include <stdint.h>
#include <stdio.h>
#define N 100000
static int bucket[256];
static double x[N], ring[65536];
int main(void)
{
    for (int i = 0; i < N; i++) x[i] = (i * 7919) % 1000;
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        bucket[(unsigned char)(i * 37)] = i;
    const int start = 4000;
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        uint16_t slot = (uint16_t)(start + i);
        ring[slot] = x[i];
    }
    long s = 0;
    for (int i = 0; i < 256; i++) s = s * 31 + bucket[i];
    double r = 0.0;
    for (int i = 0; i < 65536; i++) r += ring[i] * (i % 7 + 1);
    printf("%ld %.17g\n", s, r);
    return 0;
}

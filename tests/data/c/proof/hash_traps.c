/* Hashed scatters whose slots collide only because unsigned arithmetic wraps: the last
   writer of a slot depends on which thread runs which iteration. Mathematically each
   multiplier is a bijection modulo the table size; C computes modulo 2^32 or 2^64 first. */
#include <stdint.h>
#include <stdio.h>
#define TABLE 1000
int owner[TABLE], seen[TABLE], back[TABLE];
int main(void)
{
    for (int k = 0; k < TABLE; k++) owner[k] = seen[k] = back[k] = -1;
#pragma omp parallel for
    for (int i = 0; i < TABLE; i++) {
        unsigned h = (unsigned)i * 2654435761u; /* Knuth's multiplicative hash */
        owner[h % TABLE] = i;
    }
#pragma omp parallel for
    for (int i = 0; i < TABLE; i++) {
        uint64_t h = (uint64_t)i * 0x9E3779B97F4A7C15ull; /* Fibonacci hashing */
        seen[h % TABLE] = i;
    }
#pragma omp parallel for
    for (int i = 0; i < TABLE; i++) {
        unsigned d = i - TABLE / 2; /* negative offsets wrap to 2^32 - k */
        back[d % TABLE] = i;
    }
    long s = 0;
    for (int k = 0; k < TABLE; k++) s = s * 31 + owner[k] + 7 * seen[k] + 13 * back[k];
    printf("%ld\n", s);
    return 0;
}

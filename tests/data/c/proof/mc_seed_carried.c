/* The same estimate with one generator per thread, seeded once (firstprivate) and
   carried from sample to sample: which numbers a sample draws depends on which samples
   its thread drew before, so another schedule or thread count prints another value. */
#include <stdio.h>
#include <stdlib.h>
#define SAMPLES 20000
static double hits[SAMPLES];
int main(void)
{
    unsigned seed = 12345u;
#pragma omp parallel for firstprivate(seed)
    for (int s = 0; s < SAMPLES; s++) {
        double x = rand_r(&seed) / (double)RAND_MAX;
        double y = rand_r(&seed) / (double)RAND_MAX;
        hits[s] = (x * x + y * y <= 1.0) ? 1.0 : 0.0;
    }
    double in = 0.0;
    for (int s = 0; s < SAMPLES; s++)
        in += hits[s];
    printf("%.6f\n", 4.0 * in / SAMPLES);
    return 0;
}

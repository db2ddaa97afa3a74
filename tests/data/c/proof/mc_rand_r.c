/* Monte Carlo estimate with a generator seeded per sample (the reproducible way: each
   sample's stream depends on its index only), as embarrassingly parallel codes write it:
   rand_r keeps its whole state in the seed it is given. */
#include <stdio.h>
#include <stdlib.h>
#define SAMPLES 20000
static double hits[SAMPLES];
int main(void)
{
#pragma omp parallel for
    for (int s = 0; s < SAMPLES; s++) {
        unsigned seed = 12345u + 2654435761u * (unsigned)s;
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

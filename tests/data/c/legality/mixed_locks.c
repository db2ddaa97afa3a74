/* A histogram of particle energies: the common bins are counted with an atomic update,
   the energies past the range, rare, are clamped into the last bin under a critical
   section added later with a count. Atomic and critical do not exclude each other, so
   the two updates of the last bin can race; the histogram depends on the timing. A second histogram counts
   under one critical name throughout, with its overflow count beside it, which is
   right. The mixed one runs only when
   asked (an argument). */
#include <stdio.h>
#define NP 400000
#define BINS 64

static double energy[NP];
static long hist[BINS + 1], tally[BINS + 1];
static int overflows, nover;

int main(int argc, char **argv)
{
    int p, b;
    long check = 0;
    for (p = 0; p < NP; p++)
        energy[p] = (p % 1000) * 0.0675;
#pragma omp parallel for if (argc > 1)
    for (p = 0; p < NP; p++) {
        int bin = (int)energy[p];
        if (bin < BINS) {
#pragma omp atomic
            hist[bin] += 1;
        } else {
#pragma omp critical
            {
                hist[BINS - 1] += 1;
                overflows++;
            }
        }
    }
#pragma omp parallel for
    for (p = 0; p < NP; p++) {
        int bin = (int)energy[p];
        if (bin < BINS) {
#pragma omp critical(tally)
            tally[bin] += 1;
        } else {
#pragma omp critical(tally)
            {
                tally[BINS] += 1;
                nover++;
            }
        }
    }
    for (b = 0; b <= BINS; b++)
        check += (hist[b] + 2 * tally[b]) * (b + 1);
    printf("check %ld, overflows %d %d\n", check, overflows, nover);
    return 0;
}

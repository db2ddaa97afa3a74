/* Traps for cursors a loop moves once a trip: a cursor moved only on some trips, one a
   continue can skip, one moved two places a trip along a stretch of one, a loop one trip
   longer than its stretch, a counting-down loop of the same, and a cursor moved both in
   the step and in the body. In each, one face's writes reach the next face's stretch,
   which another iteration writes: kept. */
#include <stdio.h>

#define NF 64
#define LEN 100

static double u[NF * LEN + 2 * LEN];
static double b1[NF * LEN + 2 * LEN], b2[NF * LEN + 2 * LEN], b3[NF * LEN + 2 * LEN];
static double b4[NF * LEN + 2 * LEN], b5[NF * LEN + 2 * LEN], b6[NF * LEN + 2 * LEN];

static void sometimes(void)
{
#pragma omp parallel for
    for (int face = 0; face < NF; face++) {
        double *buf = b1 + face * LEN;
        for (int k = 0; k < 2 * LEN; k++) {
            *buf += u[k];
            if (k % 2)
                buf++;
        }
    }
}

static void skipped(void)
{
#pragma omp parallel for
    for (int face = 0; face < NF; face++) {
        double *buf = b2 + face * LEN;
        for (int k = 0; k < 2 * LEN; k++) {
            if (k % 2) {
                *buf += u[k];
                continue;
            }
            *buf++ += u[k];
        }
    }
}

static void two_places(void)
{
#pragma omp parallel for
    for (int face = 0; face < NF; face++) {
        double *buf = b3 + face * LEN;
        for (int k = 0; k < LEN; k++) {
            *buf += u[k];
            buf += 2;
        }
    }
}

static void one_more(void)
{
#pragma omp parallel for
    for (int face = 0; face < NF; face++) {
        double *buf = b4 + face * LEN;
        for (int k = 0; k <= LEN; k++)
            *buf++ += u[k];
    }
}

static void counting_down(void)
{
#pragma omp parallel for
    for (int face = 0; face < NF; face++) {
        double *buf = b5 + face * LEN;
        for (int k = LEN; k >= 0; k--)
            *buf++ += u[k];
    }
}

static void step_and_body(void)
{
#pragma omp parallel for
    for (int face = 0; face < NF; face++) {
        double *buf = b6 + face * LEN;
        for (int k = 0; k < LEN; k++, buf++)
            *buf++ += u[k];
    }
}

int main(void)
{
    for (int i = 0; i < NF * LEN + 2 * LEN; i++)
        u[i] = (i % 13) * 0.25;
    sometimes();
    skipped();
    two_places();
    one_more();
    counting_down();
    step_and_body();
    double s = 0.0;
    for (int i = 0; i < NF * LEN + 2 * LEN; i++)
        s += b1[i] + 2 * b2[i] + 3 * b3[i] + 5 * b4[i] + 7 * b5[i] + 11 * b6[i];
    printf("checksum %.6f\n", s);
    return 0;
}

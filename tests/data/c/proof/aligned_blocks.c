/* Arrays carved by hand out of one allocation rounded up to a cache line (PARSEC's
   blackscholes style): the pointers are made from numbers, but every number comes from
   one block's address, so each array lies in that block. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define PAD 256
#define LINESIZE 64
#define NUM_RUNS 3

typedef double fptype;

static fptype *spot, *strike, *rate, *vol, *expiry;
static int *kind;
static fptype *prices;
static int count;

static fptype price_one(fptype s, fptype k, fptype r, fptype v, fptype t, int put)
{
    fptype d1 = (log(s / k) + (r + 0.5 * v * v) * t) / (v * sqrt(t));
    fptype d2 = d1 - v * sqrt(t);
    fptype n1 = 0.5 * erfc(-d1 / sqrt(2.0)), n2 = 0.5 * erfc(-d2 / sqrt(2.0));
    fptype fv = k * exp(-r * t);
    return put ? fv * (1.0 - n2) - s * (1.0 - n1) : s * n1 - fv * n2;
}

static void price_all(void)
{
    int i, j;
    for (j = 0; j < NUM_RUNS; j++) {
#pragma omp parallel for private(i)
        for (i = 0; i < count; i++)
            prices[i] = price_one(spot[i], strike[i], rate[i], vol[i], expiry[i], kind[i]);
    }
}

static void shift_expiry(fptype *t, const fptype *v, int n)
{
    int i;
#pragma omp parallel for
    for (i = 0; i < n; i++)
        t[i] = t[i] + 0.01 * v[i];
}

int main(int argc, char **argv)
{
    int i;
    count = argc > 1 ? atoi(argv[1]) : 20000;
    prices = malloc(count * sizeof(fptype));
    fptype *buffer = malloc(5 * count * sizeof(fptype) + PAD);
    int *buffer2 = malloc(count * sizeof(int) + PAD);
    spot = (fptype *)(((uintptr_t)buffer + PAD) & ~(uintptr_t)(LINESIZE - 1));
    strike = spot + count;
    rate = strike + count;
    vol = rate + count;
    expiry = vol + count;
    kind = (int *)(((uintptr_t)buffer2 + PAD) & ~(uintptr_t)(LINESIZE - 1));
    for (i = 0; i < count; i++) {
        spot[i] = 40.0 + i % 37;
        strike[i] = 35.0 + i % 29;
        rate[i] = 0.05;
        vol[i] = 0.2 + 0.01 * (i % 11);
        expiry[i] = 0.5 + 0.25 * (i % 5);
        kind[i] = i % 2;
    }
    /* each strike moves by its own spot: two arrays of the one block */
#pragma omp parallel for
    for (i = 0; i < count; i++)
        strike[i] = 0.5 * (strike[i] + spot[i]);
    shift_expiry(expiry, vol, count);
    price_all();
    fptype sum = 0.0;
    for (i = 0; i < count; i++)
        sum += prices[i] * (i % 3 + 1);
    printf("sum of prices %.10e\n", sum);
    free(prices);
    free(buffer);
    free(buffer2);
    return 0;
}

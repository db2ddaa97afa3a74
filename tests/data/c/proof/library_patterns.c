/* Library calls real codes make in their loops, each iteration on its own data:
 * frexp into a private exponent and into the iteration's own element, modf, strtol
 * parsing the iteration's own record, strlen and memcmp of rows no iteration writes
 * elsewhere, labels built in the iteration's own row with strcpy and strcat, gcc's
 * builtins that only compute a value (popcount, expect) beside a trap on bad input. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 4000
#define W 16

static double x[N], mant[N], frac[N], whole[N];
static int expo[N], expo2[N], len[N], same[N], bits[N];
static long val[N];
static char rec[N][W], label[N][W];
static int ref_row[W], tab[N][W];

int main(void)
{
    int i, e;
    for (i = 0; i < N; i++) {
        x[i] = 0.75 + i * 1.618;
        snprintf(rec[i], W, "%d,%d", i * 7, i % 13);
        for (int k = 0; k < W; k++) tab[i][k] = (i % 5 == 0) ? k : k + i;
    }
    for (int k = 0; k < W; k++) ref_row[k] = k;

#pragma omp parallel for private(e)
    for (i = 0; i < N; i++) {
        mant[i] = frexp(x[i], &e);
        expo[i] = e;
        frac[i] = modf(x[i] * 0.3, &whole[i]);
        (void)frexp(x[i] * 3.0, &expo2[i]);
    }

#pragma omp parallel for
    for (i = 0; i < N; i++) {
        char *end;
        long a = strtol(rec[i], &end, 10);
        val[i] = a * 100 + (*end == ',' ? strtol(end + 1, NULL, 10) : -1);
        len[i] = (int)strlen(rec[i]) + (int)strcspn(rec[i], ",");
        len[i] += memchr(rec[i], ',', sizeof rec[i]) != NULL;
        same[i] = memcmp(tab[i], ref_row, sizeof ref_row) == 0;
    }

#pragma omp parallel for
    for (i = 0; i < N; i++) {
        strcpy(label[i], "r-");
        strcat(label[i], rec[i]);
        len[i] += (int)strlen(label[i]) + (strcmp(label[i], rec[N - 1 - i]) > 0);
    }

#pragma omp parallel for
    for (i = 0; i < N; i++) {
        if (__builtin_expect(len[i] < 0, 0))
            __builtin_trap();
        bits[i] = __builtin_popcount((unsigned)val[i]) + __builtin_clz(1u + (unsigned)i);
    }

    long h = 0;
    double s = 0;
    for (i = 0; i < N; i++) {
        h = h * 31 + val[i] + len[i] + same[i] + expo[i] + expo2[i] + label[i][3] + bits[i];
        s += mant[i] + frac[i] + whole[i];
    }
    printf("%ld %.9f\n", h, s);
    return 0;
}

/* Loops whose iterations meet only inside C library calls (or gcc's builtins), each
   printing another result under another schedule or thread count:
   - duplicate rows cleared as they are found: memcmp reads the row before, which the
     iteration before may have cleared;
   - a running integer part carried from element to element through modf's pointer
     (firstprivate: each thread starts from the value before the loop);
   - a state each thread advances through a helper taking its address;
   - sliding windows copied with gcc's __builtin_memcpy, each one element on from the
     last, so neighbouring iterations write the same elements;
   - log-gamma with its sign, read from the global glibc's lgamma sets;
   - record names formatted by a helper into its static buffer (not reentrant), copied
     out with memcpy: the threads share the one buffer. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#define N 2000
#define M 16
#define W 8

static int a[N][M], dup[N];
static double x[N], y[N], src[N + W], dst[N + W], lg[N];
static int sg[N];
static char names[N][8];

static void advance(double *s) { *s = *s * 0.5 + 1.0; }

static const char *name_of(int k)
{
    static char buf[8];
    buf[0] = 'n';
    for (int d = 6; d >= 1; d--) {
        buf[d] = (char)('0' + k % 10);
        k /= 10;
    }
    buf[7] = 0;
    return buf;
}

int main(void)
{
    int i, j;
    double ip = 0.0, acc = 3.0;
    for (i = 0; i < N; i++) {
        for (j = 0; j < M; j++) a[i][j] = (i / 3) * 7 + j;
        x[i] = 0.5 + i * 0.37;
    }
    for (i = 0; i < N + W; i++) src[i] = i * 0.25;

#pragma omp parallel for private(j)
    for (i = 1; i < N; i++) {
        dup[i] = memcmp(a[i], a[i - 1], sizeof a[i]) == 0;
        if (dup[i])
            for (j = 0; j < M; j++) a[i][j] = -1;
    }

#pragma omp parallel for firstprivate(ip)
    for (i = 0; i < N; i++) {
        double prev = ip;
        y[i] = modf(x[i], &ip) + prev;
    }

#pragma omp parallel for firstprivate(acc)
    for (i = 0; i < N; i++) {
        y[i] += acc;
        advance(&acc);
    }

#pragma omp parallel for
    for (i = 0; i < N; i++) {
        double tmp[W];
        for (int k = 0; k < W; k++) tmp[k] = src[i + k] + i;
        __builtin_memcpy(&dst[i], tmp, sizeof tmp);
    }

#pragma omp parallel for
    for (i = 0; i < N; i++) {
        lg[i] = lgamma(x[i] - 3.0);
        sg[i] = signgam;
    }

#pragma omp parallel for
    for (i = 0; i < N; i++)
        memcpy(names[i], name_of(i * 7 % 1000), sizeof names[i]);

    long h = 0;
    double s = 0;
    for (i = 0; i < N; i++) {
        h = h * 3 + dup[i] + sg[i] + names[i][3];
        s += y[i] + dst[i] + lg[i];
    }
    printf("%ld %.6f\n", h, s);
    return 0;
}

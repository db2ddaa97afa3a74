/* User-declared reductions, as codes write them for a location of the maximum and a
   complex sum: the combiner keeps the first of equal maxima in the order threads
   combine (schedule variants printed other locations), and the complex sum
   reassociates. The proof does not follow a declared combiner: both stay as written. */
#include <stdio.h>

#define N 100000

typedef struct {
    double v;
    int at;
} best_t;

typedef struct {
    double re, im;
} cplx;

static best_t pick(best_t a, best_t b) { return b.v > a.v ? b : a; }

#pragma omp declare reduction(best : best_t : omp_out = pick(omp_out, omp_in)) \
    initializer(omp_priv = (best_t){-1.0, -1})
#pragma omp declare reduction(csum : cplx : omp_out.re += omp_in.re, omp_out.im += omp_in.im) \
    initializer(omp_priv = (cplx){0.0, 0.0})

static double y[N];

int main(void)
{
    for (int i = 0; i < N; i++)
        y[i] = (double)((i * 37) % 1000);
    best_t b = {-1.0, -1};
#pragma omp parallel for reduction(best : b)
    for (int i = 0; i < N; i++) {
        best_t c = {y[i], i};
        b = pick(b, c);
    }
    cplx s = {0.0, 0.0};
#pragma omp parallel for reduction(csum : s) schedule(static)
    for (int i = 0; i < N; i++) {
        s.re += 1.0 / (1.0 + y[i]);
        s.im -= 1.0 / (3.0 + i);
    }
    printf("max %g at %d, sum %.6f %.6f\n", b.v, b.at, s.re, s.im);
    return 0;
}

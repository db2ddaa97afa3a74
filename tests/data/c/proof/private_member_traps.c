/* A thread's own struct or union set member by member: what an iteration does not set
   carries over from the last item the thread ran (its weight, its mantissa, a flag).
   Written as particle samplers, float decoders and record filters write them. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#define N 3000

struct sample {
    double value;
    double weight;
    int exponent;
    int flags;
};

union word {
    struct { double lo, hi; } pair;
    double v[2];
    uint64_t bits[2];
};

static double in[N], out[N];

double weighted(void)
{
    struct sample s = {0.0, 1.0, 0, 0};
    double sum = 0.0;
    int i;
#pragma omp parallel for firstprivate(s) reduction(+ : sum)
    for (i = 0; i < N; i++) {
        s.value = in[i];
        if (i % 4 == 0)
            s.weight = in[i] * 0.5;
        sum += s.value * s.weight;
    }
    return sum;
}

void split(void)
{
    struct sample s = {0.0, 0.0, 0, 0};
    int i;
#pragma omp parallel for firstprivate(s)
    for (i = 0; i < N; i++) {
        double m = frexp(in[i] + 1.0, &s.exponent);
        if (s.exponent > 3)
            s.value = m;
        out[i] = s.value + s.exponent;
    }
}

double punned(void)
{
    union word u;
    double sum = 0.0;
    int i;
    u.v[0] = 1.0;
    u.v[1] = 2.0;
#pragma omp parallel for firstprivate(u) reduction(+ : sum)
    for (i = 0; i < N; i++) {
        if (i % 7 == 0)
            u.pair.lo = i;
        sum += u.v[0] * (i % 3 + 1);
    }
    return sum;
}

double copied(void)
{
    struct sample s = {0.0, 0.0, 0, 0}, t;
    double sum = 0.0;
    int i;
#pragma omp parallel for firstprivate(s) private(t) reduction(+ : sum)
    for (i = 0; i < N; i++) {
        s.value = in[i];
        s.weight = 1.0;
        s.exponent = 1;
        if (i % 5 == 0)
            s.flags = i;
        t = s;
        sum += t.value + t.flags;
    }
    return sum;
}

static void tag(struct sample *p, double w)
{
    p->weight = w;
}

double tagged(void)
{
    struct sample s = {0.0, 1.0, 0, 0};
    double sum = 0.0;
    int i;
#pragma omp parallel for firstprivate(s) reduction(+ : sum)
    for (i = 0; i < N; i++) {
        s.value = in[i];
        if (in[i] > 20.0)
            tag(&s, in[i]);
        sum += s.value * s.weight;
    }
    return sum;
}

int main(void)
{
    int i;
    double s = 0.0;
    for (i = 0; i < N; i++)
        in[i] = (i * 7) % 23;
    printf("%.17g\n", weighted());
    split();
    for (i = 0; i < N; i++)
        s += out[i] * (i % 3 + 1);
    printf("%.17g\n", s);
    printf("%.17g\n", punned());
    printf("%.17g\n", copied());
    printf("%.17g\n", tagged());
    return 0;
}

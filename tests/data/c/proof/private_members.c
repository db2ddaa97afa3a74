/* A thread's own struct set whole in each iteration before it is read: member by
   member, through a library call that always stores, or by one assignment. */
#include <math.h>
#include <stdio.h>

#define N 3000

struct sample {
    double value;
    double weight;
    int exponent;
};

union word {
    double d;
    unsigned long long bits;
};

static const struct sample unit = {0.0, 1.0, 0};
static double in[N], out[N];
static unsigned long long keys[N];

void fresh(void)
{
    struct sample s;
    int i;
#pragma omp parallel for private(s)
    for (i = 0; i < N; i++) {
        s.value = in[i];
        s.weight = 2.0;
        s.exponent = i % 3;
        out[i] = s.value * s.weight + s.exponent;
    }
}

void reset(void)
{
    struct sample s;
    int i;
#pragma omp parallel for private(s)
    for (i = 0; i < N; i++) {
        s = unit;
        if (in[i] > 10.0)
            s.weight = 0.5;
        out[i] += s.value + in[i] * s.weight;
    }
}

double mantissas(void)
{
    struct sample s = {0.0, 0.0, 0};
    double sum = 0.0;
    int i;
#pragma omp parallel for firstprivate(s) reduction(+ : sum)
    for (i = 0; i < N; i++) {
        s.value = frexp(in[i] + 1.0, &s.exponent);
        sum += s.value * s.exponent + s.weight;
    }
    return sum;
}

void exponents(void)
{
    union word u;
    int i;
#pragma omp parallel for private(u)
    for (i = 0; i < N; i++) {
        u.bits = 0x3ff0000000000000ULL | (unsigned long long)(i % 1024) << 42;
        keys[i] = u.bits >> 52;
        u.d = in[i] + 1.0;
        out[i] += u.d;
    }
}

int main(void)
{
    int i;
    double s = 0.0;
    for (i = 0; i < N; i++)
        in[i] = (i * 7) % 23;
    fresh();
    reset();
    for (i = 0; i < N; i++)
        s += out[i] * (i % 3 + 1);
    printf("%.17g\n", s);
    printf("%.17g\n", mantissas());
    exponents();
    s = 0.0;
    for (i = 0; i < N; i++)
        s += out[i] + (double)keys[i];
    printf("%.17g\n", s);
    return 0;
}

/* Members that share bytes or are reached as a whole: adjacent bit-fields (one memory
 * location), an anonymous union inside the record, a union, a whole record read while
 * a member of it is written, one record type read through a cast to another. Each
 * loop is kept as written. */
#include <stdio.h>

#define N 2000

struct flags {
    unsigned seen : 4;
    unsigned mark : 4;
};

struct value {
    int kind;
    union {
        double d;
        long bits;
    };
};

union word {
    double d;
    long l;
};

struct pair {
    double a, b;
};
struct swapped {
    double b, a;
};

static struct flags f[N + 1];
static struct value v[N + 1];
static union word u[N + 1];
static struct pair pr[N + 1];

int main(void)
{
    for (int i = 0; i <= N; i++) {
        f[i].seen = i % 16;
        f[i].mark = 0;
        v[i].bits = i;
        u[i].l = i;
        pr[i].a = i;
        pr[i].b = -i;
    }
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        f[i + 1].mark = f[i].seen % 3;
        f[i].seen = (f[i].seen + 1) % 16;
    }
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        v[i].d = (double)v[i + 1].bits;
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        u[i].d = (double)u[i + 1].l;
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        struct pair next = pr[i + 1];
        pr[i].a = next.b + 1.0;
    }
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        pr[i].a = ((struct swapped *)pr)[i + 1].b * 0.5;
    long s = 0;
    double t = 0;
    for (int i = 0; i <= N; i++) {
        s += f[i].seen + 3 * f[i].mark + v[i].bits % 7 + u[i].l % 5;
        t += pr[i].a;
    }
    printf("%ld %.1f\n", s, t);
    return 0;
}

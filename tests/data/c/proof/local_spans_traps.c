/* Spans declared per iteration whose pointer member the walk must not take as where it
 * was last seen set: moved through the span's address, a union over the pointer, a whole
 * span copied over it, a member set on one branch only, a member stepped. Each loop
 * writes one element from several iterations: every loop is a trap. */
#include <stdio.h>
#include <string.h>

#define N 2048

struct span {
    double *data;
    int len;
};

union alias {
    double *p;
    unsigned long bits;
};

static double a[N + 8];
static double b[N + 8];

static void rewind_span(struct span *s) { s->data = a; }

/* the callee's copy moved back to the array's start: every call writes a[0] */
static void bump_first(struct span s, int back)
{
    s.data -= back;
    s.data[0] += 1.0;
}

int main(void)
{
    int i;
    for (i = 0; i < N + 8; i++) {
        a[i] = i % 7;
        b[i] = i % 5;
    }
#pragma omp parallel for
    for (i = 0; i < N; i++) {
        struct span s = {&a[i], 1};
        rewind_span(&s);
        s.data[0] = s.data[0] * 0.5 + b[i];
    }
#pragma omp parallel for
    for (i = 0; i < N; i++) {
        union alias u;
        u.p = &a[i];
        u.bits = (unsigned long)a;
        u.p[0] = u.p[0] * 0.5 + b[i];
    }
#pragma omp parallel for
    for (i = 0; i < N; i++) {
        struct span s = {&a[i], 1}, first = {a, 1};
        s = first;
        s.data[0] = s.data[0] * 0.5 + b[i];
    }
#pragma omp parallel for
    for (i = 0; i < N; i++) {
        struct span s = {a, 1};
        if (i % 4)
            s.data = &a[i];
        s.data[0] = s.data[0] * 0.5 + b[i];
    }
#pragma omp parallel for
    for (i = 0; i < N; i++) {
        struct span s = {&a[i], 1};
        s.data += N - i;
        s.data[0] = s.data[0] * 0.5 + b[i];
    }
#pragma omp parallel for
    for (i = 0; i < N; i++) {
        struct span s = {&a[i], 1}, first = {a, 1};
        memcpy(&s, &first, sizeof s);
        s.data[0] = s.data[0] * 0.5 + b[i];
    }
#pragma omp parallel for
    for (i = 0; i < N; i++) {
        struct span s = {&a[i], 1};
        bump_first(s, i);
    }
    double sum = 0.0;
    for (i = 0; i < N + 8; i++)
        sum += a[i] * (i % 3 + 1);
    printf("checksum %.6f\n", sum);
    return 0;
}

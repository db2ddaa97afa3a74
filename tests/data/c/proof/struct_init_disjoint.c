/* The same kernels with views of another array: each iteration reads b[i] and writes
   a[i], independent (the initializer's member is a distinct object). */
#include <stdio.h>

#define N 200000

struct view {
    double *data;
    int n;
};

static double a[N], b[N];

static void scale(struct view v)
{
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        a[i] = v.data[i] * 0.5 + 1.0;
}

int main(void)
{
    for (int i = 0; i < N; i++)
        b[i] = i % 97;
    struct view src = {.data = b, .n = N};
    scale(src);
    double s = 0.0;
    for (int i = 0; i < N; i++)
        s += a[i] * (i % 7 + 1);
    printf("%.6f\n", s);
    return 0;
}

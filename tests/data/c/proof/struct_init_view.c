/* Views of arrays handed to kernels in a struct, set up by initializer lists as modern C
   codes write them. The first view starts one element into the array the kernel writes
   (an in-place relaxation reading its right neighbour): iteration i reads what iteration
   i + 1 overwrites, so threads that run ahead change the result. */
#include <stdio.h>

#define N 200000

struct view {
    double *data;
    int n;
};

static double a[N + 1];

static void relax(struct view v)
{
#pragma omp parallel for
    for (int i = 0; i < v.n; i++)
        a[i] = v.data[i] * 0.5 + 1.0;
}

static void relax_by_pointer(const struct view *v)
{
#pragma omp parallel for
    for (int i = 0; i < v->n; i++)
        a[i] = v->data[i] * 0.25 + 2.0;
}

int main(void)
{
    for (int i = 0; i <= N; i++)
        a[i] = i % 97;
    struct view right = {.n = N, .data = a + 1};
    relax(right);
    relax_by_pointer(&(struct view){a + 1, N});
    double s = 0.0;
    for (int i = 0; i < N; i++)
        s += a[i] * (i % 7 + 1);
    printf("%.6f\n", s);
    return 0;
}

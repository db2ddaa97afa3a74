/* A buffer kept as a header and a flexible array member, as message and sparse-vector
 * codes allocate it: the loop runs to the header's count and writes the data member,
 * which never reaches the count; a scale read from the header too. */
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    int n;
    double scale;
    double v[];
} vec_t;

static vec_t *vec_new(int n)
{
    vec_t *f = malloc(sizeof(vec_t) + (size_t)n * sizeof(double));
    f->n = n;
    f->scale = 0.5;
    return f;
}

static void fill(vec_t *f)
{
#pragma omp parallel for
    for (int i = 0; i < f->n; i++)
        f->v[i] = (i % 13) * f->scale;
}

int main(int argc, char **argv)
{
    vec_t *f = vec_new(argc > 1 ? atoi(argv[1]) : 1000);
    fill(f);
    double s = 0.0;
    for (int i = 0; i < f->n; i++)
        s += f->v[i];
    printf("%.2f\n", s);
    free(f);
    return 0;
}

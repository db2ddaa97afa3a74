/* A map handed either a helper of its own or a transform looked up by a library it
 * links (declared here, defined elsewhere): the pointer may hold any function. */
#include <stdio.h>
#include <stdlib.h>

typedef double (*unary_fn)(double);
unary_fn lookup_transform(const char *name);

static double twice(double x) { return 2.0 * x; }

void map(double *v, int n, unary_fn f)
{
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        v[i] = f(v[i]);
}

int main(int argc, char **argv)
{
    double v[100];
    for (int i = 0; i < 100; i++)
        v[i] = i;
    map(v, 100, argc > 1 ? lookup_transform(argv[1]) : twice);
    printf("%f\n", v[3]);
    return 0;
}

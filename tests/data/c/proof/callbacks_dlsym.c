/* A function found by name at run time: any function of the process may be called. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

typedef double (*unary_fn)(double);

static double twice(double x) { return 2.0 * x; }

void by_name(double *v, int n, const char *name)
{
    void *self = dlopen(NULL, RTLD_NOW);
    unary_fn f = self ? (unary_fn)dlsym(self, name) : NULL;
    if (f == NULL)
        f = twice;
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n; i++)
        v[i] = f(v[i]);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 4096;
    double *v = malloc(sizeof(double) * n);
    if (!v)
        return 1;
    for (int i = 0; i < n; i++)
        v[i] = i % 17;
    by_name(v, n, argc > 2 ? argv[2] : "sqrt");
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += v[i] * (i % 3 + 1);
    printf("%.9f\n", s);
    return 0;
}

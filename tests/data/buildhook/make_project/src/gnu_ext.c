#include "kernels.h"

/* GCC extensions in the user's own code (a statement expression and
 * __auto_type): gcc compiles this, pycparser cannot parse it. */
#define SQUARE(x) ({ __auto_type _v = (x); _v * _v; })

long sum_squares(const int *v)
{
    long total = 0;
    int i;
#pragma omp parallel for reduction(+:total) schedule(static)
    for (i = 0; i < N; i++)
        total += SQUARE((long)v[i]);
    return total;
}

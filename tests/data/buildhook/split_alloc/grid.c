/* Allocation helpers in a file of their own, as PolyBench's polybench.c and many
   codes' util.c keep them: every call returns fresh memory. */
#include <stdlib.h>
#include "grid.h"

double *new_field(int n)
{
    double *f = malloc((size_t)n * sizeof(double));
    if (f == NULL)
        exit(2);
    return f;
}

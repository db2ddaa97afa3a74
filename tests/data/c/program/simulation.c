#include "xs.h"

double lcg_double(unsigned long *seed)
{
    *seed = (2806196910506780709UL * *seed + 1UL) % 9223372036854775808UL;
    return (double) *seed / 9223372036854775808.0;
}

void run_event_based(Input in, Grid grid, double *out)
{
#pragma omp parallel for schedule(dynamic, 100)
    for (int i = 0; i < in.lookups; i++) {
        unsigned long seed = 1070UL + 2UL * (unsigned long) i;
        double e = lcg_double(&seed);
        macro_xs_vector(in, grid, e, &out[i * in.stride]);
    }
}

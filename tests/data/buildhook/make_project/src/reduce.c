#include "kernels.h"

/* An integer reduction: exact whatever the schedule and the thread count. */
long count_multiples(const int *v, int n, int k)
{
    long count = 0;
    int i;
#pragma omp parallel for reduction(+:count)
    for (i = 0; i < n; i++)
        if (v[i] % k == 0)
            count++;
    return count;
}

/* A domain check the way C programs make it: errno after the loop. errno is each
   thread's own; after the loop main reads the master's, so whether the warning prints
   depends on which thread took the negative element. A stream compaction whose slots
   come from gcc's atomic builtin: each survivor's slot follows the order threads came. */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#define N 100000

static double x[N], y[N];
static int in[N], out[N], count;

int main(void)
{
    int i;
    for (i = 0; i < N; i++) {
        x[i] = (i == 12345) ? -1.0 : 1.0 + i;
        in[i] = (int)((i * 2654435761u) % 1000u);
    }
    errno = 0;
#pragma omp parallel for
    for (i = 0; i < N; i++)
        y[i] = log(x[i]);
    if (errno == EDOM)
        printf("warning: log of a negative value\n");

#pragma omp parallel for
    for (i = 0; i < N; i++)
        if (in[i] < 100)
            out[__sync_fetch_and_add(&count, 1)] = i;

    long h = 0;
    double s = 0;
    for (i = 0; i < count; i++) h = h * 31 + out[i];
    for (i = 0; i < N; i++)
        if (y[i] == y[i]) s += y[i];
    printf("%d %ld %.6f\n", count, h, s);
    return 0;
}

/* errno read the way argument parsing reads it: cleared just before strtol and checked
   just after, with the program's parallel work after that. No loop can set what the
   check reads, so the loops of logs and roots are free. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define MAXN 100000

static double x[MAXN], y[MAXN];

static long parse(const char *text, long fallback)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno != 0 || *end != '\0' || v <= 0 || v > MAXN)
        return fallback;
    return v;
}

int main(int argc, char **argv)
{
    long steps = argc > 1 ? parse(argv[1], 2) : 2;
    int i;
    for (i = 0; i < MAXN; i++)
        x[i] = 1.0 + i;
    for (long t = 0; t < steps; t++) {
#pragma omp parallel for
        for (i = 0; i < MAXN; i++)
            y[i] = log(x[i]) + sqrt(x[i]) + t;
    }
    double s = 0;
    for (i = 0; i < MAXN; i++)
        s += y[i];
    printf("%.6f\n", s);
    return 0;
}

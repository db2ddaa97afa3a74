/* A C file with one syntax error, on the line marked below. */
#include <stdio.h>

#ifndef N
#define N 100
#endif

static double a[N], b[N];

static void scale(double s)
{
    int i;
#pragma omp parallel for
    for (i = 0; i < N; i++)
        a[i] = (s * b[i]; /* SYNTAX ERROR: ')' missing before ';' */
}

int main(void)
{
    scale(2.0);
    printf("checksum: %.12e\n", a[0]);
    return 0;
}

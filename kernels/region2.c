/* One parallel region holding two worksharing loops: the second reads
 * neighbours written by the first, which is safe only because of the
 * implicit barrier at the end of the first loop. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <omp.h>

#ifndef N
#define N 200000
#endif
#ifndef REPS
#define REPS 40
#endif

static double a[N], b[N];

static void two_phase(void)
{
    int r, i;
    for (r = 0; r < REPS; r++) {
#pragma omp parallel
        {
#pragma omp for
            for (i = 0; i < N; i++)
                a[i] = sin(1.0e-3 * (double)(i + r)) + 1.0e-6 * b[i];
#pragma omp for
            for (i = 1; i < N - 1; i++)
                b[i] += (a[i - 1] + a[i] + a[i + 1]) * (1.0 / 3.0);
        }
    }
}

int main(void)
{
    double sum = 0.0;
    int i;
    for (i = 0; i < N; i++)
        b[i] = 0.0;
    two_phase();
    for (i = 0; i < N; i++)
        sum += b[i] * (double)(1 + i % 4);
    printf("checksum: %.12e\n", sum);
    return 0;
}

/* RSBench style: the loop calls a function defined in another file of the program. */
#include <stdio.h>
#define N 5000
double lookup(int i, const double *table, int n);
static double table[64], out[N];

int main(void)
{
    for (int i = 0; i < 64; i++)
        table[i] = i * 0.5;
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        out[i] = lookup(i, table, 64);
    double s = 0.0;
    for (int i = 0; i < N; i++)
        s += out[i];
    printf("%.3f\n", s);
    return 0;
}

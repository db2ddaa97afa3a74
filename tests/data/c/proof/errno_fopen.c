/* A field computed in parallel, then written to a file whose opening is checked the way
   C programs check it: perror right after fopen failed. fopen sets errno whenever it
   fails, so the message is fopen's, never a loop's failing sqrt or log: the loop is
   free. The input file's check is written with the declaration and a negated test. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define N 200000

static double x[N], field[N];

int main(int argc, char **argv)
{
    int i;
    double s = 0.0;
    FILE *in = fopen(argc > 2 ? argv[2] : "/dev/null", "r");
    if (!in) {
        perror("input");
        return 1;
    }
    fclose(in);
    for (i = 0; i < N; i++)
        x[i] = 1.0 + (i % 1000) * 0.5;
#pragma omp parallel for
    for (i = 0; i < N; i++)
        field[i] = sqrt(x[i]) * log(x[i]);
    FILE *out;
    out = fopen(argc > 1 ? argv[1] : "/dev/null", "w");
    if (out == NULL) {
        perror(argc > 1 ? argv[1] : "/dev/null");
        return 1;
    }
    for (i = 0; i < N; i++)
        s += field[i];
    fprintf(out, "%.6f\n", s);
    fclose(out);
    printf("%.6f\n", s);
    return 0;
}

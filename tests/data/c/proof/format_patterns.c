/* Records parsed and labels formatted in the iteration's own rows: sscanf into the
   iteration's elements and row, snprintf into its label (no stream is touched). */
#include <stdio.h>
#include <string.h>
#define N 2000
static char rec[N][24], label[N][16], word[N][8];
static int id[N];
static double x[N];
int main(void)
{
    int i;
    for (i = 0; i < N; i++) snprintf(rec[i], sizeof rec[i], "%d %f w%d", i * 7, i * 0.25, i % 10);
#pragma omp parallel for
    for (i = 0; i < N; i++) {
        sscanf(rec[i], "%d %lf %7s", &id[i], &x[i], word[i]);
        snprintf(label[i], sizeof label[i], "p%05d-%s", id[i] % 100000, word[i]);
    }
    unsigned long h = 0; double s = 0;
    for (i = 0; i < N; i++) { h = h * 131 + (unsigned char)label[i][3] + id[i]; s += x[i]; }
    printf("%lu %.3f\n", h, s);
    return 0;
}

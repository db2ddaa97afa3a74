/* The same running sum as row_before.c on a grid sized at run time through a pointer to
   a variable-length row (double (*b)[n], n from the command line): the row's length is
   unknown to the analysis, yet b[i][j - 1] at j = 0 is the previous row's last element
   whatever it is. The sweep races, so it runs only when asked, with a second argument. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int n = 100, i, j;
    if (argc > 1)
        n = atoi(argv[1]);
    double(*b)[n] = malloc(sizeof(double[n][n]));
    double s = 0.0;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            b[i][j] = (i + j) % 7;
    if (argc > 2) {
#pragma omp parallel for private(j)
        for (i = 1; i < n; i++)
            for (j = 0; j < n; j++)
                b[i][j] += 0.5 * b[i][j - 1];
    }
    for (i = 0; i < n; i++)
        s += b[i][n - 1] * (i % 3 + 1);
    printf("%.6f\n", s);
    free(b);
    return 0;
}

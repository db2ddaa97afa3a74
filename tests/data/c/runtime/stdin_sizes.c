/* Reads its problem size and coefficients from standard input, as many
   benchmark drivers do ("prog < input.txt"). */
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    int n;
    double alpha;
    if (scanf("%d %lf", &n, &alpha) != 2 || n < 1) {
        fprintf(stderr, "bad input\n");
        return 1;
    }
    double *x = malloc(sizeof(double) * n), *y = malloc(sizeof(double) * n);
    for (int i = 0; i < n; i++) { x[i] = i % 11; y[i] = 1.0; }
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        y[i] = alpha * x[i] + y[i];
    double s = 0.0;
    for (int i = 0; i < n; i++) s += y[i];
    printf("axpy %.6e\n", s);
    free(x);
    free(y);
    return 0;
}

/* A benchmark that takes its team size as an option and writes it on its loop, as
   codes do with num_threads(nthreads): the count is known only when the program runs. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int nthreads = argc > 1 ? atoi(argv[1]) : 1;
    long n = argc > 2 ? atol(argv[2]) : 200000;
    double *x = malloc(n * sizeof(double));
    double sum = 0.0;
#pragma omp parallel for num_threads(nthreads)
    for (long i = 0; i < n; i++)
        x[i] = (double)(i % 13) * 0.5 + 1.0 / (1.0 + (double)i);
    for (long i = 0; i < n; i++)
        sum += x[i];
    printf("n %ld sum %.6f\n", n, sum);
    free(x);
    return 0;
}

#ifndef KERNELS_H
#define KERNELS_H
void stencil(double *restrict out, const double *restrict in, int steps);
long count_multiples(const int *v, int n, int k);
long sum_squares(const int *v);
#endif

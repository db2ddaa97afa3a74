#ifndef KERNELS_H
#define KERNELS_H
void stencil(double *out, const double *in, int steps);
long count_multiples(const int *v, int n, int k);
long sum_squares(const int *v);
#endif

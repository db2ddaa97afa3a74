/* A discrete Fourier transform in C99 complex arithmetic, as signal-processing codes
   write it: each output frequency sums its own terms, and a spectrum's magnitude
   comes from cabs and carg of each bin. */
#include <complex.h>
#include <math.h>
#include <stdio.h>

#define N 512

static double complex x[N], X[N];
static double mag[N], phase[N];

int main(void) {
  const double pi = acos(-1.0);
  for (int n = 0; n < N; n++) x[n] = cos(0.05 * n) + I * sin(0.11 * n);
#pragma omp parallel for schedule(static)
  for (int k = 0; k < N; k++) {
    double complex sum = 0.0;
    for (int n = 0; n < N; n++) sum += x[n] * cexp(-2.0 * pi * I * k * n / N);
    X[k] = sum;
  }
#pragma omp parallel for
  for (int k = 0; k < N; k++) {
    mag[k] = cabs(X[k]);
    phase[k] = carg(X[k]) + creal(conj(X[k])) * 0.0 + cimag(X[k]) * 0.0;
  }
  double total = 0.0;
  for (int k = 0; k < N; k++) total += mag[k];
  printf("%.6f %.6f %.6f\n", total, phase[3], creal(X[5]));
  return 0;
}

#ifndef AUTOTUNE_STUB_MATH_H
#define AUTOTUNE_STUB_MATH_H
#define M_PI 3.14159265358979323846
#define M_E 2.7182818284590452354
#define HUGE_VAL (1e308 * 10)
#define INFINITY (1e308 * 10)
#define NAN (0.0 / 0.0)
#define isnan(x) ((x) != (x))
#define isinf(x) ((x) == INFINITY || (x) == -INFINITY)
double sqrt(double); float sqrtf(float);
double exp(double); float expf(float);
double log(double); float logf(float);
double log10(double); double log2(double);
double pow(double, double); float powf(float, float);
double sin(double); double cos(double); double tan(double);
float sinf(float); float cosf(float);
double asin(double); double acos(double); double atan(double); double atan2(double, double);
double sinh(double); double cosh(double); double tanh(double);
double fabs(double); float fabsf(float);
double floor(double); double ceil(double); double round(double); double trunc(double);
double fmod(double, double); double fmin(double, double); double fmax(double, double);
double hypot(double, double); double cbrt(double); double erf(double);
double ldexp(double, int); double frexp(double, int *);
#endif

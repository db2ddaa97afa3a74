#ifndef SAXPY_H
#define SAXPY_H
void saxpy(float a, const float *x, float *y);
#endif

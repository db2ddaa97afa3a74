#ifndef SAXPY_H
#define SAXPY_H
void saxpy(float a, const float *restrict x, float *restrict y);
#endif

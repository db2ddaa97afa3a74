/* A byte view of a double array, as serialisation and checksum codes keep one (C lets
   an unsigned char pointer alias anything): iteration i reads element i whole and sets
   byte i, a byte of element i / 8. Run in order, every element is read before its bytes
   change; split between threads, the second thread changes elements the first has not
   read yet. */
#include <stdio.h>
#define N 65536
static double a[N], b[N];
int main(void)
{
    for (int i = 0; i < N; i++)
        a[i] = 1.0 + i * 0.5;
    unsigned char *bytes = (unsigned char *)a;
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        b[i] = a[i];
        bytes[i] = 0xff;
    }
    double s = 0.0;
    for (int i = 0; i < N; i++)
        s = s * 0.999 + b[i];
    printf("%.17g\n", s);
    return 0;
}

/* A scale whose address escapes into a pointer the proof cannot follow (copied through
   memory with memcpy): out may be &scale, so one iteration's write could change what
   the others read. Only a variable whose address is never taken is out of every
   pointer's reach. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    int n = 4096;
    double scale = 0.5;
    double *buf = malloc(sizeof(double) * n);
    double *p = argc > 5 ? &scale : buf;
    double *out;
    memcpy(&out, &p, sizeof out);
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        out[i] = scale * i;
    double s = 0;
    for (int i = 0; i < n; i++)
        s += buf[i];
    printf("%.1f\n", s);
    free(buf);
    return 0;
}

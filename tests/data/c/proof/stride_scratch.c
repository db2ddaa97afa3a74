/* A scratch row filled every other element; the odd element read comes from whichever
 * earlier iteration of the same thread last set it. */
#include <stdio.h>
#define N 600
static long out[N];

int main(void)
{
    long buf[8] = {0};
    int i, k;
#pragma omp parallel for firstprivate(buf) private(k)
    for (i = 0; i < N; i++) {
        for (k = 0; k < 8; k += 2)
            buf[k] = i + k;
        if (i % 3 == 0)
            buf[1] = i;
        out[i] = buf[0] + buf[1];
    }
    long s = 0;
    for (i = 0; i < N; i++)
        s = (s * 31 + out[i]) % 1000003;
    printf("%ld\n", s);
    return 0;
}

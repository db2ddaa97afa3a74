/* Numbers round-tripped through one shared text buffer: every iteration formats into
   it and parses it back, so what an iteration reads is whatever the last writer left. */
#include <stdio.h>

#define N 2000

static char line[64];
static int v[N];

int main(void)
{
    int i;
#pragma omp parallel for
    for (i = 0; i < N; i++) {
        sprintf(line, "%d", i * 3);
        sscanf(line, "%d", &v[i]);
    }
    long h = 0;
    for (i = 0; i < N; i++)
        h = h * 3 + v[i];
    printf("%ld\n", h);
    return 0;
}

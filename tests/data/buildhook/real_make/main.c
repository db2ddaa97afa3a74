#include <stdio.h>
#include "solver.h"

static double u[NX], f[NX];

int main(void)
{
    for (int i = 0; i < NX; i++) {
        u[i] = 1.0;
        f[i] = (i % 13) * 0.25;
    }
    relax(u, f, 3);
    printf("checksum %.10e\n", checksum(u, NX));
    return 0;
}

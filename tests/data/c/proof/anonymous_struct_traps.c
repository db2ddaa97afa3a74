/* Nodes of an anonymous struct of a typedef, their array members read and written from
   other iterations: the last query to reach a node leaves its mark there, and a sweep
   reads the next node's key before its own iteration rewrites it. */
#include <stdio.h>

#define N 4000
#define NODES 64
typedef struct {
    int keys[4];
    int last[2];
} node;

static node nodes[NODES];
static int target[N], out[N];

int main(void)
{
    for (int i = 0; i < N; i++)
        target[i] = (i * 37) % NODES;
    for (int n = 0; n < NODES; n++)
        for (int k = 0; k < 4; k++)
            nodes[n].keys[k] = n * 4 + k;
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        nodes[target[i]].last[0] = i;
#pragma omp parallel for
    for (int n = 0; n < NODES - 1; n++) {
        out[n] = nodes[n + 1].keys[0];
        nodes[n].keys[0] = out[n] + 1;
    }
    long s = 0;
    for (int n = 0; n < NODES; n++)
        s += nodes[n].last[0] * (n + 1) + nodes[n].keys[0];
    printf("%ld\n", s);
    return 0;
}

/* A small bytecode interpreter dispatching through a table of label addresses (GNU C
 * labels as values, as threaded-code interpreters write it), run on every item by one
 * parallel loop, beside an ordinary parallel loop over the results. */
#include <stdio.h>

#define N 4096

enum { PUSH, ADD, MUL, HALT };
static const int program[] = {PUSH, 3, PUSH, 4, ADD, PUSH, 2, MUL, HALT};
static long result[N];
static double scaled[N];

static long run(long seed)
{
    static void *dispatch[] = {&&push, &&add, &&mul, &&halt};
    long stack[8];
    int sp = 0, pc = 0;
    goto *dispatch[program[pc]];
push:
    stack[sp++] = program[pc + 1] + seed;
    pc += 2;
    goto *dispatch[program[pc]];
add:
    sp--;
    stack[sp - 1] += stack[sp];
    pc++;
    goto *dispatch[program[pc]];
mul:
    sp--;
    stack[sp - 1] *= stack[sp];
    pc++;
    goto *dispatch[program[pc]];
halt:
    return stack[sp - 1];
}

int main(void)
{
#pragma omp parallel for schedule(static)
    for (int i = 0; i < N; i++)
        result[i] = run(i % 17);
#pragma omp parallel for schedule(static)
    for (int i = 0; i < N; i++)
        scaled[i] = 0.5 * (double)result[i];
    double s = 0.0;
    for (int i = 0; i < N; i++)
        s += scaled[i] * (i % 3 + 1);
    printf("%.1f\n", s);
    return 0;
}

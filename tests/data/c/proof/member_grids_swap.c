/* A solver that keeps its two grids in a struct and swaps the members after each sweep
 * (the driver swaps; a second solver swaps under single inside its region): for one
 * struct the two members point at distinct grids at every moment. Every loop varies. */
#include <stdio.h>
#include <stdlib.h>

#define NX 24
#define NY 20
#define NZ 16
#define IDX(i, j, k) ((((k) * NY) + (j)) * NX + (i))

typedef struct {
    double *u;
    double *unew;
    double *rhs;
} solver_t;

static solver_t *solver_new(void)
{
    solver_t *s = malloc(sizeof *s);
    s->u = calloc(NX * NY * NZ, sizeof(double));
    s->unew = calloc(NX * NY * NZ, sizeof(double));
    s->rhs = malloc(NX * NY * NZ * sizeof(double));
    for (int q = 0; q < NX * NY * NZ; q++)
        s->rhs[q] = (double)(q % 11);
    return s;
}

static void sweep(solver_t *s)
{
#pragma omp parallel for collapse(2)
    for (int k = 1; k < NZ - 1; k++)
        for (int j = 1; j < NY - 1; j++)
            for (int i = 1; i < NX - 1; i++)
                s->unew[IDX(i, j, k)] =
                    (s->u[IDX(i - 1, j, k)] + s->u[IDX(i + 1, j, k)] + s->u[IDX(i, j - 1, k)] +
                     s->u[IDX(i, j + 1, k)] + s->u[IDX(i, j, k - 1)] + s->u[IDX(i, j, k + 1)] +
                     0.01 * s->rhs[IDX(i, j, k)]) /
                    6.0;
}

typedef struct {
    float *cur;
    float *next;
} heat_t;

static void heat(heat_t *h, int steps)
{
#pragma omp parallel
    for (int t = 0; t < steps; t++) {
#pragma omp for
        for (int i = 1; i < NX * NY - 1; i++)
            h->next[i] = 0.25f * h->cur[i - 1] + 0.5f * h->cur[i] + 0.25f * h->cur[i + 1];
#pragma omp single
        {
            float *tmp = h->cur;
            h->cur = h->next;
            h->next = tmp;
        }
    }
}

int main(void)
{
    solver_t *s = solver_new();
    for (int it = 0; it < 4; it++) {
        sweep(s);
        double *t = s->u;
        s->u = s->unew;
        s->unew = t;
    }
    heat_t h;
    h.cur = malloc(NX * NY * sizeof(float));
    h.next = malloc(NX * NY * sizeof(float));
    for (int i = 0; i < NX * NY; i++)
        h.cur[i] = h.next[i] = (float)(i % 9);
    heat(&h, 5);
    double sum = 0.0;
    for (int q = 0; q < NX * NY * NZ; q++)
        sum += s->u[q];
    for (int i = 0; i < NX * NY; i++)
        sum += h.cur[i];
    printf("%.6f\n", sum);
    return 0;
}

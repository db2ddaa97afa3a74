/* Traps for boxes whose vectors are not each box's own: a box handed its neighbour's
   vectors, a box copied whole over another, boxes copied with memcpy, vectors carved
   from one pool with too short a stride, vectors from a helper that keeps one static
   buffer, a box that reads its neighbour's vector, and boxes picked through a table with
   repeats or by halving the index, holders seen through two pointers one box apart, and
   one level passed as both the fine and the coarse level, and two boxes set to one block
   through the other member of a union (named, or anonymous in the box). Each loop updates a box's vector
   in place, so two iterations that meet lose an update: kept. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NB 16
#define VOL 64

/* one struct type per trap: a member's stores are told apart by its name */
typedef struct { int volume; double *u1; } box1;
typedef struct { int volume; double *u2; } box2;
typedef struct { int volume; double *u3; } box3;
typedef struct { int volume; double *u4; } box4;
typedef struct { int volume; double *u5; } box5;
typedef struct { int volume; double *u6; } box6;
typedef struct { int volume; double *u7; } box7;
typedef struct { int volume; double *u8; } box8;
typedef struct { box8 *boxes; } level8;
typedef union { double *u9; double *w9; } cell9;
typedef struct { int volume; union { double *u10; double *w10; }; } box10;

static box1 shared_boxes[NB];
static box2 copied_boxes[NB];
static box3 memcpy_boxes[NB];
static box4 pool_boxes[NB];
static box5 helper_boxes[NB];
static box6 neighbour_boxes[NB];
static box7 perm_boxes[NB];
static int perm[NB];
static cell9 cells[NB];
static box10 anon_boxes[NB];
static double one_block[VOL];
static double pool[NB * VOL];

static double *scratch_vector(int n)
{
    static double *buf;
    if (!buf)
        buf = calloc(n, sizeof(double));
    return buf;
}

#define MAKE(boxes, u)                                    \
    for (int b = 0; b < NB; b++) {                        \
        boxes[b].volume = VOL;                            \
        boxes[b].u = malloc(VOL * sizeof(double));        \
        for (int e = 0; e < VOL; e++)                     \
            boxes[b].u[e] = (e + b) % 5;                  \
    }
#define TOTAL(boxes, u, s)                                \
    for (int b = 0; b < NB; b++)                          \
        for (int e = 0; e < VOL; e++)                     \
            s += boxes[b].u[e] * (b + 1);

static void shared_vector(void)
{
#pragma omp parallel for
    for (int b = 0; b < NB; b++)
        for (int e = 0; e < shared_boxes[b].volume; e++)
            shared_boxes[b].u1[e] += 1.0;
}

static void copied_box(void)
{
#pragma omp parallel for
    for (int b = 0; b < NB; b++)
        for (int e = 0; e < VOL; e++)
            copied_boxes[b].u2[e] += 1.0;
}

static void memcpy_box(void)
{
#pragma omp parallel for
    for (int b = 0; b < NB; b++)
        for (int e = 0; e < VOL; e++)
            memcpy_boxes[b].u3[e] += 1.0;
}

static void pooled(void)
{
#pragma omp parallel for
    for (int b = 0; b < NB; b++)
        for (int e = 0; e < VOL; e++)
            pool_boxes[b].u4[e] += 1.0;
}

static void helper_vectors(void)
{
#pragma omp parallel for
    for (int b = 0; b < NB; b++)
        for (int e = 0; e < VOL; e++)
            helper_boxes[b].u5[e] += 1.0;
}

static void permuted(void)
{
#pragma omp parallel for
    for (int b = 0; b < NB; b++) {
        box7 *q = &perm_boxes[perm[b]];
        for (int e = 0; e < VOL; e++)
            q->u7[e] += 1.0;
    }
}

static void halves(void)
{
#pragma omp parallel for
    for (int b = 0; b < NB; b++)
        for (int e = 0; e < VOL; e++)
            perm_boxes[b / 2].u7[e] += 1.0;
}

static void make_level(level8 *l)
{
    l->boxes = malloc(NB * sizeof(box8));
    MAKE(l->boxes, u8)
}

/* the holders seen through two pointers one box apart */
static void shifted(box8 *lo, box8 *hi)
{
#pragma omp parallel for
    for (int b = 0; b < NB - 1; b++)
        for (int e = 0; e < VOL; e++)
            lo[b].u8[e] += hi[b].u8[e];
}

/* one level passed as the fine and the coarse one */
static void two_levels(level8 *fine, level8 *coarse)
{
#pragma omp parallel for
    for (int b = 0; b < NB - 1; b++)
        for (int e = 0; e < VOL; e++)
            fine->boxes[b].u8[e] += coarse->boxes[b + 1].u8[e];
}

static void neighbour(void)
{
#pragma omp parallel for
    for (int b = 0; b < NB - 1; b++)
        for (int e = 0; e < VOL; e++)
            neighbour_boxes[b].u6[e] += neighbour_boxes[b + 1].u6[e];
}

/* a union whose other member two cells were set to one block through */
static void union_cells(void)
{
#pragma omp parallel for
    for (int b = 0; b < NB; b++)
        for (int e = 0; e < VOL; e++)
            cells[b].u9[e] += 1.0;
}

/* the same through an anonymous union in the box */
static void anonymous_union(void)
{
#pragma omp parallel for
    for (int b = 0; b < NB; b++)
        for (int e = 0; e < VOL; e++)
            anon_boxes[b].u10[e] += 1.0;
}

int main(void)
{
    MAKE(shared_boxes, u1)
    shared_boxes[1].u1 = shared_boxes[0].u1;
    MAKE(copied_boxes, u2)
    copied_boxes[3] = copied_boxes[2];
    MAKE(memcpy_boxes, u3)
    memcpy(&memcpy_boxes[5], &memcpy_boxes[4], sizeof(box3));
    for (int b = 0; b < NB; b++) {
        pool_boxes[b].volume = VOL;
        pool_boxes[b].u4 = pool + b * (VOL / 2);
        helper_boxes[b].volume = VOL;
        helper_boxes[b].u5 = scratch_vector(VOL);
    }
    MAKE(neighbour_boxes, u6)
    MAKE(perm_boxes, u7)
    for (int b = 0; b < NB; b++)
        perm[b] = (b * 3) % 8;
    shared_vector();
    copied_box();
    memcpy_box();
    pooled();
    helper_vectors();
    neighbour();
    permuted();
    halves();
    level8 levels[2];
    for (int l = 0; l < 2; l++)
        make_level(&levels[l]);
    shifted(levels[0].boxes, levels[0].boxes + 1);
    two_levels(&levels[1], &levels[1]);
    for (int b = 0; b < NB; b++) {
        cells[b].u9 = malloc(VOL * sizeof(double));
        for (int e = 0; e < VOL; e++)
            cells[b].u9[e] = (e + b) % 5;
    }
    cells[3].w9 = cells[4].w9 = one_block;
    MAKE(anon_boxes, u10)
    anon_boxes[3].w10 = anon_boxes[4].w10 = one_block;
    union_cells();
    anonymous_union();
    double s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;
    TOTAL(shared_boxes, u1, s1)
    TOTAL(copied_boxes, u2, s2)
    TOTAL(memcpy_boxes, u3, s3)
    TOTAL(pool_boxes, u4, s4)
    TOTAL(helper_boxes, u5, s5)
    TOTAL(neighbour_boxes, u6, s6)
    TOTAL(perm_boxes, u7, s7)
    double s8 = 0;
    TOTAL(levels[0].boxes, u8, s8)
    TOTAL(levels[1].boxes, u8, s8)
    TOTAL(cells, u9, s8)
    TOTAL(anon_boxes, u10, s8)
    printf("%.3f %.3f %.3f\n%.3f %.3f %.3f %.3f %.3f\n", s1, s2, s3, s4, s5, s6, s7, s8);
    return 0;
}

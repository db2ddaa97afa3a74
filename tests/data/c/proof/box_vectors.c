/* A level of boxes, as block-structured multigrid codes keep it: an array of boxes,
   each with its own array of vectors, each vector a block of its own with ghost cells
   around the box. Kernels loop over the boxes in parallel and reach every box's vectors
   through its struct: a scaled copy, an axpy in place, a dot product, and a smoother
   that reads one vector's neighbours and writes another. */
#include <stdio.h>
#include <stdlib.h>

#define NBOXES 27
#define DIM 12
#define GHOSTS 1

typedef struct {
    int dim, ghosts, jStride, kStride, volume;
    double **vectors;
} box_type;

typedef struct {
    int num_boxes, num_vectors;
    box_type *my_boxes;
} level_type;

static void create_level(level_type *level, int nb, int nv)
{
    level->num_boxes = nb;
    level->num_vectors = nv;
    level->my_boxes = malloc(nb * sizeof(box_type));
    for (int b = 0; b < nb; b++) {
        box_type *box = &level->my_boxes[b];
        box->dim = DIM;
        box->ghosts = GHOSTS;
        box->jStride = DIM + 2 * GHOSTS;
        box->kStride = box->jStride * box->jStride;
        box->volume = box->kStride * box->jStride;
        box->vectors = malloc(nv * sizeof(double *));
        for (int v = 0; v < nv; v++) {
            box->vectors[v] = malloc(box->volume * sizeof(double));
            for (int x = 0; x < box->volume; x++)
                box->vectors[v][x] = ((x + b) % 7) * 0.5 + v;
        }
    }
}

static void scale_vector(level_type *level, int nb, int id_c, int id_a, double scale)
{
    int box;
#pragma omp parallel for private(box) schedule(static, 1)
    for (box = 0; box < nb; box++) {
        int jStride = level->my_boxes[box].jStride, kStride = level->my_boxes[box].kStride;
        int ghosts = level->my_boxes[box].ghosts, dim = level->my_boxes[box].dim;
        double *c = level->my_boxes[box].vectors[id_c] + ghosts * (1 + jStride + kStride);
        const double *a = level->my_boxes[box].vectors[id_a] + ghosts * (1 + jStride + kStride);
        for (int k = 0; k < dim; k++)
            for (int j = 0; j < dim; j++)
                for (int i = 0; i < dim; i++) {
                    int ijk = i + j * jStride + k * kStride;
                    c[ijk] = scale * a[ijk];
                }
    }
}

static void axpy(level_type *level, int nb, int id_y, int id_x, double alpha)
{
#pragma omp parallel for
    for (int box = 0; box < nb; box++) {
        box_type *bx = &level->my_boxes[box];
        double *y = bx->vectors[id_y];
        const double *x = bx->vectors[id_x];
        for (int e = 0; e < bx->volume; e++)
            y[e] += alpha * x[e];
    }
}

static double dot(level_type *level, int nb, int id_a, int id_b)
{
    double sum = 0.0;
#pragma omp parallel for reduction(+ : sum)
    for (int box = 0; box < nb; box++) {
        const double *a = level->my_boxes[box].vectors[id_a];
        const double *b = level->my_boxes[box].vectors[id_b];
        double box_sum = 0.0;
        for (int e = 0; e < level->my_boxes[box].volume; e++)
            box_sum += a[e] * b[e];
        sum += box_sum;
    }
    return sum;
}

static void smooth(level_type *level, int nb, int id_out, int id_in)
{
#pragma omp parallel for schedule(dynamic, 1)
    for (int box = 0; box < nb; box++) {
        int js = level->my_boxes[box].jStride, ks = level->my_boxes[box].kStride;
        int dim = level->my_boxes[box].dim;
        const double *in = level->my_boxes[box].vectors[id_in] + 1 + js + ks;
        double *out = level->my_boxes[box].vectors[id_out] + 1 + js + ks;
        for (int k = 0; k < dim; k++)
            for (int j = 0; j < dim; j++)
                for (int i = 0; i < dim; i++) {
                    int ijk = i + j * js + k * ks;
                    out[ijk] = (in[ijk - 1] + in[ijk + 1] + in[ijk - js] + in[ijk + js]
                                + in[ijk - ks] + in[ijk + ks]) / 6.0;
                }
    }
}

int main(void)
{
    level_type level;
    create_level(&level, NBOXES, 4);
    scale_vector(&level, NBOXES, 1, 0, 2.0);
    axpy(&level, NBOXES, 2, 1, 0.5);
    smooth(&level, NBOXES, 3, 2);
    printf("dot %.9e\n", dot(&level, NBOXES, 3, 1));
    printf("dot %.9e\n", dot(&level, NBOXES, 2, 2));
    return 0;
}

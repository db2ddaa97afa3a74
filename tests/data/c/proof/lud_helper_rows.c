/* Rodinia lud as its authors split it: the matrix comes from an allocating helper that
 * hands it back through an out-parameter (create_matrix(&m, size)), its size from the
 * command line; the factorisation indexes a[i*size + j] inside the step loop. Prints a
 * checksum of the factors. */
#include <stdio.h>
#include <stdlib.h>

typedef enum { RET_SUCCESS, RET_FAILURE } func_ret_t;

static func_ret_t create_matrix(float **mp, int size)
{
    float *m = (float *)malloc(sizeof(float) * size * size);
    if (m == NULL)
        return RET_FAILURE;
    for (int i = 0; i < size; i++)
        for (int j = 0; j < size; j++)
            m[i * size + j] = (i == j) ? (float)size : (float)((i * 13 + j * 7) % 17) / 17.0f;
    *mp = m;
    return RET_SUCCESS;
}

static void lud_omp(float *a, int size)
{
    int i, j, k;
    float sum;
    for (i = 0; i < size; i++) {
#pragma omp parallel for default(none) private(j, k, sum) shared(size, i, a)
        for (j = i; j < size; j++) {
            sum = a[i * size + j];
            for (k = 0; k < i; k++)
                sum -= a[i * size + k] * a[k * size + j];
            a[i * size + j] = sum;
        }
#pragma omp parallel for default(none) private(j, k, sum) shared(size, i, a)
        for (j = i + 1; j < size; j++) {
            sum = a[j * size + i];
            for (k = 0; k < i; k++)
                sum -= a[j * size + k] * a[k * size + i];
            a[j * size + i] = sum / a[i * size + i];
        }
    }
}

int main(int argc, char **argv)
{
    int matrix_dim = argc > 1 ? atoi(argv[1]) : 64;
    float *m;
    if (matrix_dim < 1 || create_matrix(&m, matrix_dim) != RET_SUCCESS) {
        fprintf(stderr, "error creating the matrix\n");
        return 1;
    }
    lud_omp(m, matrix_dim);
    double s = 0.0;
    for (int i = 0; i < matrix_dim * matrix_dim; i++)
        s += m[i];
    printf("checksum %.4e\n", s);
    free(m);
    return 0;
}

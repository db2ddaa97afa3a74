/* A blocked thermal sweep in the style of Rodinia's hotspot: the grid cut into 16 x 16
   chunks, each chunk's row and column found by division and remainder by the chunks per
   row, sizes firstprivate, the two grids swapped by the caller, float constants. The
   grid's side must be a multiple of 16, as hotspot's is. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define BLOCK_SIZE 16
#define BLOCK_SIZE_C BLOCK_SIZE
#define BLOCK_SIZE_R BLOCK_SIZE
#define MAX_PD (3.0e6)
#define PRECISION 0.001
#define SPEC_HEAT_SI 1.75e6
#define K_SI 100
#define FACTOR_CHIP 0.5

typedef float FLOAT;
const FLOAT t_chip = 0.0005;
const FLOAT chip_height = 0.016;
const FLOAT chip_width = 0.016;
const FLOAT amb_temp = 80.0;
int num_omp_threads;

void single_iteration(FLOAT *result, FLOAT *temp, FLOAT *power, int row, int col,
                      FLOAT Cap_1, FLOAT Rx_1, FLOAT Ry_1, FLOAT Rz_1, FLOAT step)
{
    FLOAT delta;
    int r, c;
    int chunk;
    int num_chunk = row * col / (BLOCK_SIZE_R * BLOCK_SIZE_C);
    int chunks_in_row = col / BLOCK_SIZE_C;
    int chunks_in_col = row / BLOCK_SIZE_R;

#pragma omp parallel for shared(power, temp, result) private(chunk, r, c, delta) firstprivate(row, col, num_chunk, chunks_in_row) schedule(static)
    for (chunk = 0; chunk < num_chunk; ++chunk) {
        int r_start = BLOCK_SIZE_R * (chunk / chunks_in_col);
        int c_start = BLOCK_SIZE_C * (chunk % chunks_in_row);
        int r_end = r_start + BLOCK_SIZE_R > row ? row : r_start + BLOCK_SIZE_R;
        int c_end = c_start + BLOCK_SIZE_C > col ? col : c_start + BLOCK_SIZE_C;

        if (r_start == 0 || c_start == 0 || r_end == row || c_end == col) {
            for (r = r_start; r < r_start + BLOCK_SIZE_R; ++r) {
                for (c = c_start; c < c_start + BLOCK_SIZE_C; ++c) {
                    if ((r == 0) && (c == 0)) {
                        delta = (Cap_1) * (power[0] + (temp[1] - temp[0]) * Rx_1 +
                                (temp[col] - temp[0]) * Ry_1 + (amb_temp - temp[0]) * Rz_1);
                    } else if ((r == 0) && (c == col - 1)) {
                        delta = (Cap_1) * (power[c] + (temp[c - 1] - temp[c]) * Rx_1 +
                                (temp[c + col] - temp[c]) * Ry_1 + (amb_temp - temp[c]) * Rz_1);
                    } else if ((r == row - 1) && (c == col - 1)) {
                        delta = (Cap_1) * (power[r * col + c] + (temp[r * col + c - 1] - temp[r * col + c]) * Rx_1 +
                                (temp[(r - 1) * col + c] - temp[r * col + c]) * Ry_1 + (amb_temp - temp[r * col + c]) * Rz_1);
                    } else if ((r == row - 1) && (c == 0)) {
                        delta = (Cap_1) * (power[r * col] + (temp[r * col + 1] - temp[r * col]) * Rx_1 +
                                (temp[(r - 1) * col] - temp[r * col]) * Ry_1 + (amb_temp - temp[r * col]) * Rz_1);
                    } else if (r == 0) {
                        delta = (Cap_1) * (power[c] + (temp[c + 1] + temp[c - 1] - 2.0 * temp[c]) * Rx_1 +
                                (temp[col + c] - temp[c]) * Ry_1 + (amb_temp - temp[c]) * Rz_1);
                    } else if (c == col - 1) {
                        delta = (Cap_1) * (power[r * col + c] + (temp[(r + 1) * col + c] + temp[(r - 1) * col + c] - 2.0 * temp[r * col + c]) * Ry_1 +
                                (temp[r * col + c - 1] - temp[r * col + c]) * Rx_1 + (amb_temp - temp[r * col + c]) * Rz_1);
                    } else if (r == row - 1) {
                        delta = (Cap_1) * (power[r * col + c] + (temp[r * col + c + 1] + temp[r * col + c - 1] - 2.0 * temp[r * col + c]) * Rx_1 +
                                (temp[(r - 1) * col + c] - temp[r * col + c]) * Ry_1 + (amb_temp - temp[r * col + c]) * Rz_1);
                    } else if (c == 0) {
                        delta = (Cap_1) * (power[r * col] + (temp[(r + 1) * col] + temp[(r - 1) * col] - 2.0 * temp[r * col]) * Ry_1 +
                                (temp[r * col + 1] - temp[r * col]) * Rx_1 + (amb_temp - temp[r * col]) * Rz_1);
                    } else {
                        delta = 0;
                    }
                    result[r * col + c] = temp[r * col + c] + delta;
                }
            }
            continue;
        }

        for (r = r_start; r < r_start + BLOCK_SIZE_R; ++r) {
#pragma omp simd
            for (c = c_start; c < c_start + BLOCK_SIZE_C; ++c) {
                result[r * col + c] = temp[r * col + c] + (Cap_1 * (power[r * col + c] +
                    (temp[(r + 1) * col + c] + temp[(r - 1) * col + c] - 2.f * temp[r * col + c]) * Ry_1 +
                    (temp[r * col + c + 1] + temp[r * col + c - 1] - 2.f * temp[r * col + c]) * Rx_1 +
                    (amb_temp - temp[r * col + c]) * Rz_1));
            }
        }
    }
}

void compute_tran_temp(FLOAT *result, int num_iterations, FLOAT *temp, FLOAT *power, int row, int col)
{
    FLOAT grid_height = chip_height / row;
    FLOAT grid_width = chip_width / col;
    FLOAT Cap = FACTOR_CHIP * SPEC_HEAT_SI * t_chip * grid_width * grid_height;
    FLOAT Rx = grid_width / (2.0 * K_SI * t_chip * grid_height);
    FLOAT Ry = grid_height / (2.0 * K_SI * t_chip * grid_width);
    FLOAT Rz = t_chip / (K_SI * grid_height * grid_width);
    FLOAT max_slope = MAX_PD / (FACTOR_CHIP * t_chip * SPEC_HEAT_SI);
    FLOAT step = PRECISION / max_slope / 1000.0;
    FLOAT Rx_1 = 1.f / Rx, Ry_1 = 1.f / Ry, Rz_1 = 1.f / Rz, Cap_1 = step / Cap;
    FLOAT *r = result, *t = temp;
    for (int i = 0; i < num_iterations; i++) {
        single_iteration(r, t, power, row, col, Cap_1, Rx_1, Ry_1, Rz_1, step);
        FLOAT *tmp = t; t = r; r = tmp;
    }
}

int main(int argc, char **argv)
{
    int grid_rows = argc > 1 ? atoi(argv[1]) : 256;
    int grid_cols = grid_rows;
    int sim_time = argc > 2 ? atoi(argv[2]) : 4;
    FLOAT *temp = calloc(grid_rows * grid_cols, sizeof(FLOAT));
    FLOAT *power = calloc(grid_rows * grid_cols, sizeof(FLOAT));
    FLOAT *result = calloc(grid_rows * grid_cols, sizeof(FLOAT));
    if (!temp || !power || !result) { fprintf(stderr, "unable to allocate memory\n"); return 1; }
    for (int i = 0; i < grid_rows * grid_cols; i++) {
        temp[i] = 320.0f + (float)((i * 7919) % 100) / 10.0f;
        power[i] = (float)((i * 104729) % 1000) / 1.0e6f;
    }
    compute_tran_temp(result, sim_time, temp, power, grid_rows, grid_cols);
    FLOAT *out = (sim_time & 1) ? result : temp;
    double s = 0;
    for (int i = 0; i < grid_rows * grid_cols; i++) s += out[i] * (1 + i % 7);
    printf("checksum %.6e\n", s);
    free(temp); free(power); free(result);
    return 0;
}

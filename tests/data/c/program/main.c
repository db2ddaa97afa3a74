#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "xs.h"

Input read_cli(int argc, char **argv)
{
    Input in = { 4000, 6, 512, 5 };
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-l") == 0 && i + 1 < argc)
            in.lookups = atoi(argv[++i]);
        else if (strcmp(argv[i], "-g") == 0 && i + 1 < argc)
            in.grid_points = atoi(argv[++i]);
        else if (strcmp(argv[i], "-s") == 0 && i + 1 < argc && atoi(argv[i + 1]) >= 5)
            in.stride = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: %s [-l lookups] [-g grid points]\n", argv[0]);
            exit(4);
        }
    }
    return in;
}

int main(int argc, char **argv)
{
    Input in = read_cli(argc, argv);
    Grid grid = make_grid(in);
    double *out = calloc((size_t) in.lookups * in.stride, sizeof(double));
    run_event_based(in, grid, out);
    double checksum = 0.0;
    for (int i = 0; i < in.lookups * in.stride; i++)
        checksum += out[i] * (i % in.stride + 1);
    printf("lookups %d checksum %.6e\n", in.lookups, checksum);
    free(out);
    free(grid.energy);
    free(grid.xs);
    return 0;
}

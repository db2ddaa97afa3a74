/* A proxy app in XSBench's and RSBench's shape: the input and the grid are structs
 * handed by value to the lookup kernel, which lives in another file of the program. */
#ifndef XS_H
#define XS_H

typedef struct {
    int lookups;
    int n_levels;
    int grid_points;
    int stride; /* doubles kept per lookup, at least the 5 channels */
} Input;

typedef struct {
    double *energy;
    double *xs;
    int n;
} Grid;

Input read_cli(int argc, char **argv);
Grid make_grid(Input in);
void run_event_based(Input in, Grid grid, double *out);
void macro_xs_vector(Input in, Grid grid, double e, double *xs);
double lcg_double(unsigned long *seed);

#endif

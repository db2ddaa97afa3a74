/* XSBench-style event loop: random lookups into a sorted energy grid, sized by the
 * command line. Like XSBench, it validates its checksum only for the default lookup
 * count and exits 1 ("invalid checksum") for any other. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_LOOKUPS 5000000

static unsigned long hash_u(unsigned long x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdUL;
    x ^= x >> 33;
    return x;
}

static long grid_search(long n, double quarry, const double *grid)
{
    long lo = 0, hi = n - 1;
    while (hi - lo > 1) {
        long mid = lo + (hi - lo) / 2;
        if (grid[mid] > quarry)
            hi = mid;
        else
            lo = mid;
    }
    return lo;
}

int main(int argc, char **argv)
{
    long lookups = DEFAULT_LOOKUPS, gridpoints = 20000;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "-l") == 0)
            lookups = atol(argv[i + 1]);
        else if (strcmp(argv[i], "-g") == 0)
            gridpoints = atol(argv[i + 1]);
    }
    double *grid = malloc(sizeof(double) * gridpoints);
    long *verification = malloc(sizeof(long) * lookups);
    for (long i = 0; i < gridpoints; i++)
        grid[i] = (double)i / gridpoints;
#pragma omp parallel for schedule(dynamic, 100)
    for (long i = 0; i < lookups; i++) {
        double e = (hash_u((unsigned long)i + 1) % 1000000) / 1000000.0;
        verification[i] = grid_search(gridpoints, e, grid) % 997;
    }
    unsigned long checksum = 0;
    for (long i = 0; i < lookups; i++)
        checksum += (unsigned long)verification[i];
    printf("Verification checksum: %lu\n", checksum);
    free(grid);
    free(verification);
    if (lookups != DEFAULT_LOOKUPS) {
        printf("Verification checksum: invalid (lookups differ from the default)\n");
        return 1;
    }
    return 0;
}

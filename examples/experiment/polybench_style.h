/* A small stand-in for a PolyBench-like harness header, written for the
 * autotune front-end tests. It mimics the conventions real suites use
 * (dataset size selection, DATA_TYPE, array macros that expand to fixed
 * size 2-D arrays, loop bounds through _PB_ macros) without their code. */
#ifndef POLYBENCH_STYLE_H
#define POLYBENCH_STYLE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if !defined(MINI_DATASET) && !defined(SMALL_DATASET) && !defined(LARGE_DATASET)
#define SMALL_DATASET
#endif

#ifndef DATA_TYPE_IS_FLOAT
#define DATA_TYPE double
#define DATA_PRINTF_MODIFIER "%0.4lf "
#define SCALAR_VAL(x) x
#else
#define DATA_TYPE float
#define DATA_PRINTF_MODIFIER "%0.4f "
#define SCALAR_VAL(x) x##f
#endif

/* Loop bounds: the compile-time size unless PB_SCALAR_BOUNDS asks for the
 * run-time parameter (then trip counts are not known at compile time). */
#ifdef PB_SCALAR_BOUNDS
#define PB_BOUND(macro, param) param
#else
#define PB_BOUND(macro, param) macro
#endif

/* Array parameters and declarations: always fixed-size 2-D arrays. */
#define POLYBENCH_2D(var, d1, d2, dd1, dd2) var[d1][d2]
#define POLYBENCH_1D(var, d1, dd1) var[d1]
#define PB_ALLOC_2D(type, d1, d2) ((type(*)[d1][d2])pb_alloc((size_t)(d1) * (d2), sizeof(type)))
#define PB_ARRAY(x) (*x)

static void *pb_alloc(size_t n, size_t elt)
{
    void *p = calloc(n, elt);
    if (p == NULL) {
        fprintf(stderr, "[polybench_style] allocation of %zu elements failed\n", n);
        exit(1);
    }
    return p;
}

#define PB_FREE(x) free((void *)(x))

/* Run the statement only under an impossible condition, so the compiler
 * must keep the kernel's results alive without printing them. */
#define pb_prevent_dce(stmt)                                                  \
    do {                                                                      \
        if (argc > 42 && strcmp(argv[0], "") == 0)                            \
            stmt;                                                             \
    } while (0)

#endif /* POLYBENCH_STYLE_H */

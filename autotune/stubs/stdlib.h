#ifndef AUTOTUNE_STUB_STDLIB_H
#define AUTOTUNE_STUB_STDLIB_H
#include "_autotune_types.h"
#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
#define RAND_MAX 2147483647
void *malloc(size_t n);
void *calloc(size_t n, size_t size);
void *realloc(void *p, size_t n);
void free(void *p);
int posix_memalign(void **p, size_t align, size_t size);
void *aligned_alloc(size_t align, size_t size);
void exit(int status);
void abort(void);
int atexit(void (*fn)(void));
int atoi(const char *s);
long atol(const char *s);
double atof(const char *s);
long strtol(const char *s, char **end, int base);
unsigned long strtoul(const char *s, char **end, int base);
double strtod(const char *s, char **end);
int rand(void);
void srand(unsigned int seed);
double drand48(void);
void srand48(long seed);
int abs(int x);
long labs(long x);
char *getenv(const char *name);
void qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));
#endif

#include "_autotune_types.h"
#define offsetof(t, m) ((size_t)0)

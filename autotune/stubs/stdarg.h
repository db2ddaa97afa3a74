#include "_autotune_types.h"
#define va_start(ap, last) ((void)0)
#define va_arg(ap, type) (*(type *)0)
#define va_end(ap) ((void)0)
#define va_copy(d, s) ((void)0)

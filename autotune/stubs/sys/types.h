#include "_autotune_types.h"

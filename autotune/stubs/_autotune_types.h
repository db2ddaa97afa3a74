/* autotune stub headers: just enough declarations for pycparser to parse
   programs that use the C standard library and OpenMP, used only when the
   system headers cannot be parsed. Not for compiling. */
#ifndef AUTOTUNE_STUB_TYPES_H
#define AUTOTUNE_STUB_TYPES_H
typedef unsigned long size_t;
typedef long ssize_t;
typedef long ptrdiff_t;
typedef int wchar_t;
typedef long off_t;
typedef long time_t;
typedef long clock_t;
typedef long suseconds_t;
typedef int pid_t;
typedef void *va_list;
#define NULL ((void *)0)
#endif

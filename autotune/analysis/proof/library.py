"""What calls of the C library and of gcc's builtins do to memory, as documented.

The proof cannot read the library's code, so each function it lets a loop call is
described here by what the C standard (or gcc's manual, for builtins) says it reads and
writes: ``strlen(s)`` reads the string ``s`` points at, ``frexp(x, &e)`` stores the
exponent in ``e``, ``memcmp(a, b, n)`` reads ``n`` bytes of each. A function that reads
or writes through a pointer must say so, or a loop whose iterations meet through that
memory would be proven independent (a row compared with the row an earlier iteration
cleared; a mantissa split storing every exponent in one shared variable).

A gcc builtin stands for the library function of its name (``__builtin_memcpy`` is
``memcpy``; ``__builtin___memcpy_chk``, which ``_FORTIFY_SOURCE`` puts in its place, is
``memcpy`` with one more argument); the few that compute a value and touch no memory
are named; any other builtin is one the proof does not know.
"""

from __future__ import annotations

from pycparser import c_ast

from autotune.analysis.ops import math_name

# pointer parameters whose object the function reads (a string or a counted block)
READS_POINTEES: dict[str, tuple[int, ...]] = {
    "strlen": (0,),
    "strcmp": (0, 1),
    "strncmp": (0, 1),
    "strchr": (0,),
    "strrchr": (0,),
    "strstr": (0, 1),
    "memcmp": (0, 1),
    "atoi": (0,),
    "atol": (0,),
    "atof": (0,),
    "strtol": (0,),
    "strtod": (0,),
    "strtoul": (0,),
    "strtoll": (0,),
    "strtoull": (0,),
    "strtof": (0,),
    "strtold": (0,),
    "atoll": (0,),
    "memchr": (0,),
    "strnlen": (0,),
    "strspn": (0, 1),
    "strcspn": (0, 1),
    "strpbrk": (0, 1),
    "strcasecmp": (0, 1),
    "strncasecmp": (0, 1),
    "strdup": (0,),  # allocators (``allocators``) that copy the string they are given
    "strndup": (0,),
}
# of those, the ones that read C strings: up to the terminator, never past it
STRING_READS = frozenset(READS_POINTEES) - {"memcmp", "memchr"}
# copies that end their destination with a terminator (strncpy need not)
STRING_COPIES = frozenset({"strcpy", "strcat"})
# the argument that bounds how many bytes those reads take (at most, for strncmp)
BYTE_COUNT: dict[str, int] = {
    "memcmp": 2,
    "strncmp": 2,
    "memchr": 2,
    "strncasecmp": 2,
    "strndup": 1,
}

# pointer parameters the function stores one object through: frexp's exponent, modf's
# integer part, strtol's end pointer, the result of gcc's checked arithmetic
OUT_PARAMS: dict[str, tuple[int, ...]] = {
    "frexp": (1,),
    "modf": (1,),
    "strtol": (1,),
    "strtod": (1,),
    "strtoul": (1,),
    "strtoll": (1,),
    "strtoull": (1,),
    "strtof": (1,),
    "strtold": (1,),
    "add_overflow": (2,),
    "sub_overflow": (2,),
    "mul_overflow": (2,),
}

# out-parameters that receive a pointer into the object another argument points at
# (strtol's end pointer stops inside the string it parsed)
POINTS_INTO: dict[str, tuple[int, int]] = {
    name: (1, 0) for name in "strtol strtod strtoul strtoll strtoull strtof strtold".split()
}

# functions that return a pointer into the object an argument points at (or NULL): the
# string and memory searches, which stay in the array object they are given
RETURNS_INTO: dict[str, int] = {
    name: 0 for name in "strchr strrchr strstr strpbrk memchr memrchr strchrnul rawmemchr".split()
}

# the C library's sorts, by argument role: their comparison is a function of the program
SORTS: dict[str, tuple[str, ...]] = {
    "qsort": ("base", "count", "size", "cmp"),
    "bsearch": ("key", "base", "count", "size", "cmp"),
}

# library functions that also set a global the program may read (glibc's lgamma sets
# the sign of the gamma function in ``signgam``)
SETS_GLOBAL: dict[str, str] = {"lgamma": "signgam"}

# math functions that never set errno (C's math_errhandling: the others may, on a
# domain, pole or range error, and glibc sets it); strtol and friends set ERANGE
ERRNO_FREE = frozenset(
    "fabs floor ceil trunc round rint nearbyint fmin fmax copysign frexp modf abs labs "
    "creal cimag conj cproj".split()
)
ERRNO_PARSERS = frozenset(
    "strtol strtod strtoul strtoll strtoull strtof strtold atoi atol atoll atof sprintf "
    "snprintf sscanf".split()
)
ERRNO = "__errno_location"  # what glibc's <errno.h> makes of ``errno``

# <fenv.h>: the exception flags are each thread's own (a division by zero on another
# thread leaves the master's flags clear), so a program that tests them after a loop
# sees which thread ran the iteration that raised one
FLAG_TESTS = frozenset("fetestexcept fegetexceptflag fegetenv feholdexcept feupdateenv".split())

# I/O functions that store into the caller's memory (a buffer, scanned values)
# copies: (the destination's argument, the source's or None)
COPY_FUNCS = {
    "memcpy": (0, 1),
    "memmove": (0, 1),
    "memset": (0, None),
    "strcpy": (0, 1),
    "strncpy": (0, 1),
    "strcat": (0, 1),
}
IO_STORES = frozenset("vsprintf vsnprintf scanf fscanf fgets gets fread read".split())

# gcc builtins that compute a value from their arguments and touch no memory of the
# program's (va_start and va_end set the variadic function's own va_list)
VALUE_BUILTINS = frozenset(
    """expect expect_with_probability constant_p object_size dynamic_object_size prefetch
    assume_aligned classify_type isnan isinf isinf_sign isfinite isnormal signbit
    signbitf signbitl fpclassify isgreater isgreaterequal isless islessequal islessgreater
    isunordered huge_val huge_valf huge_vall inf inff infl nan nanf nanl
    add_overflow_p sub_overflow_p mul_overflow_p bswap16 bswap32 bswap64 bswap128
    popcount popcountl popcountll clz clzl clzll ctz ctzl ctzll clrsb clrsbl clrsbll
    ffs ffsl ffsll parity parityl parityll choose_expr types_compatible_p
    va_start va_end va_copy""".split()
)

# builtins that end the program where they run (a trap; reaching an unreachable point
# is undefined behaviour, which no variant need preserve)
BUILTIN_ENDS = {"trap": "abort", "unreachable": "abort"}

BUILTIN = "__builtin_"


def library_name(name: str) -> str:
    """The library function a gcc builtin stands for (``__builtin___memcpy_chk`` ->
    ``memcpy``, ``__builtin_sqrt`` -> ``sqrt``); other names as they are."""
    if name.startswith(BUILTIN + "__") and name.endswith("_chk"):
        return name[len(BUILTIN) + 2 : -len("_chk")]
    if name.startswith(BUILTIN):
        base = name[len(BUILTIN) :]
        return BUILTIN_ENDS.get(base, base)
    return name


def sets_errno(name: str) -> bool:
    """A failing call of ``name`` may set the calling thread's ``errno``."""
    base = math_name(name)
    return (base is not None and base not in ERRNO_FREE) or name in ERRNO_PARSERS


# the arguments a library call writes through, by position (besides ``COPY_FUNCS``' and
# ``mempcpy``'s destination): readers fill their buffers, scanners their pointers after
# the format, a sort permutes its array
WRITTEN_ARGS = {
    "scanf": slice(1, None),
    "fscanf": slice(2, None),
    "sscanf": slice(2, None),
    "sprintf": slice(0, 1),
    "snprintf": slice(0, 1),
    "vsprintf": slice(0, 1),
    "vsnprintf": slice(0, 1),
    "fgets": slice(0, 1),
    "gets": slice(0, 1),
    "fread": slice(0, 1),
    "read": slice(1, 2),
    "qsort": slice(0, 1),
    "memccpy": slice(0, 1),
    "mempcpy": slice(0, 1),
    "bcopy": slice(1, 2),
    "swab": slice(1, 2),
}


def written_args(name: str, args: list[c_ast.Node]) -> list[c_ast.Node]:
    """The arguments whose memory a library call may write."""
    name = library_name(name)
    if name in COPY_FUNCS:
        return args[COPY_FUNCS[name][0] : COPY_FUNCS[name][0] + 1]
    return args[WRITTEN_ARGS[name]] if name in WRITTEN_ARGS else []


def read_only_args(name: str) -> tuple[int, ...]:
    """The positions of the pointer arguments a library call only reads (a copy's
    source, a string it scans); () for a function the table does not describe."""
    name = library_name(name)
    copied = COPY_FUNCS.get(name, (None, None))[1]
    return READS_POINTEES.get(name, ()) + (() if copied is None else (copied,))

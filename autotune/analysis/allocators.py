"""The C library's allocators, in one table for every analysis that meets them.

The layout reads a block's size from the arguments that give it (``calloc(n, size)``:
both, multiplied); the points-to names each block by the call that made it, and a
helper is an allocator only when each of its paths returns a block from one that
returns a *new* block every call (``realloc`` may return the block it was given, so its
result may be its argument's object); the walk of a loop lets it call any of them, but
``posix_memalign`` stores the block through its first argument, a store the walk must
see like any other."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Allocator:
    """One function of the family, as the C standard and POSIX describe it."""

    size_args: tuple[int, ...]  # the arguments whose product is the block's bytes
    fresh: bool = True  # each call returns a block no pointer reaches yet (or NULL)
    out_arg: int | None = None  # the block is stored through this argument, not returned
    frees: bool = False
    filled: bool = False  # the new block's bytes are set (calloc's zeros, strdup's copy)


TABLE: dict[str, Allocator] = {
    "malloc": Allocator((0,)),
    "calloc": Allocator((0, 1), filled=True),
    "aligned_alloc": Allocator((1,)),
    "memalign": Allocator((1,)),
    "valloc": Allocator((0,)),
    "_mm_malloc": Allocator((0,)),
    "posix_memalign": Allocator((2,), out_arg=0),
    "strdup": Allocator((), filled=True),  # a copy of the string, its terminator included
    "strndup": Allocator((), filled=True),
    "realloc": Allocator((1,), fresh=False),
    "reallocarray": Allocator((1, 2), fresh=False),
    "free": Allocator((), fresh=False, frees=True),
    "_mm_free": Allocator((), fresh=False, frees=True),
}

# return a new block from every call
RETURNS_FRESH = frozenset(
    n for n, a in TABLE.items() if a.fresh and a.out_arg is None and not a.frees
)
# make a new block every call, returned or stored through an argument
FRESH = frozenset(n for n, a in TABLE.items() if a.fresh and not a.frees)
# store a new block through an argument: its position
STORES_FRESH: dict[str, int] = {
    n: a.out_arg for n, a in TABLE.items() if a.fresh and a.out_arg is not None
}
# make a new block whose bytes are all set
FILLED = frozenset(n for n, a in TABLE.items() if a.filled)
# return a block that may be the one they were given
REALLOCATORS = frozenset(n for n, a in TABLE.items() if not a.fresh and a.size_args)
# give a block back: what it held is read by no one
DEALLOCATORS = frozenset(n for n, a in TABLE.items() if a.frees)
# ``p = f(...)``: the arguments that size the block p points at
SIZED: dict[str, tuple[int, ...]] = {
    n: a.size_args for n, a in TABLE.items() if a.size_args and a.out_arg is None
}
# callable inside a loop with no store the walk must follow
STORE_FREE = frozenset(n for n, a in TABLE.items() if a.out_arg is None)

"""What the walk of one iteration carries: the loop's context, pointer values, frames,
and the library functions sorted by what they do to the proof."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from pycparser import c_ast

from autotune.analysis.allocators import STORE_FREE
from autotune.analysis.proof import poly
from autotune.analysis.proof.library import COPY_FUNCS, READS_POINTEES
from autotune.analysis.proof.pointsto import PointsTo
from autotune.analysis.proof.program import Program
from autotune.analysis.symbols import Scope

IO_FUNCS = frozenset(
    "printf fprintf vprintf vfprintf puts fputs putchar putc fputc fwrite vsprintf "
    "vsnprintf write perror fflush scanf fscanf getchar getc fgetc fgets gets fread read "
    "fseek rewind fopen fclose remove rename system".split()
)
STATEFUL_FUNCS = frozenset(
    "rand random drand48 erand48 lrand48 mrand48 srand srandom srand48 strtok time clock "
    "gettimeofday clock_gettime setjmp longjmp getenv signal raise".split()
)
ENDS_PROGRAM = frozenset("exit abort _exit _Exit quick_exit __assert_fail".split())
# library functions without hidden state: those reading through a pointer say what in
# ``library.READS_POINTEES``, the rest take values
PURE_FUNCS = frozenset(
    "abs labs llabs assert toupper tolower isdigit isalpha isspace".split()
) | frozenset(READS_POINTEES)
# generators whose whole state is the object their first argument points at: a seed
# that is the iteration's own makes them pure (read, then written back)
STATE_ARG_FUNCS = frozenset({"rand_r"})
# every library function the lists above name (and math, told by ``ops.math_name``)
LIBRARY_FUNCS = (
    (IO_FUNCS | STATEFUL_FUNCS | ENDS_PROGRAM | PURE_FUNCS | STORE_FREE | STATE_ARG_FUNCS)
    | frozenset(COPY_FUNCS)
    | frozenset({"sprintf", "snprintf", "sscanf"})
)
MAX_INLINE = 6
COMMUTATIVE = {"+=": "+", "-=": "+", "*=": "*", "|=": "|", "&=": "&", "^=": "^"}


@dataclass
class PtrVal:
    """A pointer value: the objects it may reach and the index it points at
    (``y0[i]`` as a pointer is ``[i, 0]``; ``x - 1`` is ``[-1]``; None: unknown)."""

    objects: frozenset[str] | None
    base: list[poly.Poly] | None  # the index it points at; arithmetic moves the last
    owner: str = "shared"
    name: str = ""
    # pointers never at one object together: a double buffer's (swaps), or two levels of
    # a grid hierarchy passed to one call (levels; those hold for the rows below too)
    group: tuple[object, str] | None = None
    # bytes of the element the base counts, where they are not the pointee's own: the
    # address of a member standing for its struct element (``&q->seed``: q's struct)
    element: int | None = None


@dataclass
class Frame:
    """A function being walked: the loop's own, or one it calls (inlined)."""

    func: c_ast.FuncDef
    ast: c_ast.FileAST
    scope: Scope
    ints: dict[str, poly.Poly | None] = field(default_factory=dict)  # bound int params
    ptrs: dict[str, PtrVal] = field(default_factory=dict)  # bound pointer params
    # bytes of the element a bound pointer param's index counts: the caller's array's,
    # whatever the parameter's type (``(__m128i *)&q[i]`` handed to an intrinsic)
    units: dict[str, int | None] = field(default_factory=dict)
    top: bool = False


@dataclass
class LoopContext:
    """How names of the loop's own function are classified, and its pointer params."""

    prog: Program
    pointsto: PointsTo
    func: c_ast.FuncDef
    ast: c_ast.FileAST
    loop: c_ast.For
    collapse: int
    local: set[int]  # ids of declarations inside the loop
    private: set[str]  # names private to a thread beyond one iteration
    firstprivate: set[str]
    reductions: dict[str, str]  # name -> operator
    written: set[str]  # names written anywhere in the iteration (and its calls)
    array_written: set[str] = field(default_factory=set)  # roots of element writes, by name
    # values set just before the loop by straight-line code (``i = 1;``), as polynomials
    entry: dict[str, poly.Poly] = field(default_factory=dict)
    param_ptrs: dict[str, PtrVal] = field(default_factory=dict)  # one calling context
    # bounds the enclosing sequential loops put on parameters (proof/enclosing.py)
    given: tuple = ()
    linear: dict[str, int] = field(default_factory=dict)  # linear(j: s) variables -> s
    # threadprivate names every thread's copy of holds master's value in the loop: copied
    # in by the region (``copyin``) and stored to nowhere in it
    copied_in: set[str] = field(default_factory=set)
    # the statement of the enclosing parallel region (an orphaned loop's: its function's
    # body, which every thread runs; None: a combined construct), and the names its
    # private clause gives each thread
    region: c_ast.Node | None = None
    region_private: set[str] = field(default_factory=set)


@dataclass
class Hooks:
    """What the walk does with memory (``access``) and calls (``calls``): passed in,
    so those modules may use the walker's types without an import cycle."""

    touch: Callable[..., None]
    call: Callable[..., None]
    pointer: Callable[..., PtrVal | None]
    is_pointer: Callable[..., bool] | None = None  # an expression of pointer type

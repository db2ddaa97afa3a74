"""What one walk of a loop iteration found: plain data between ``refs`` and ``verdict``."""

from __future__ import annotations

from dataclasses import dataclass, field

from pycparser import c_ast

from autotune.analysis.proof.poly import Poly
from autotune.frontend.records import Clauses


def clause_names(items: list[str]) -> list[str]:
    """Variable names of clause items as written (``"a, b"``, ``"+:s"`` parts, ``x[:n]``)."""
    out = []
    for item in items:
        for n in item.split(","):
            n = n.strip()
            if n:
                out.append(n.split("[")[0].strip())
    return out


def reduction_items(items: list[str]) -> list[tuple[str, str]]:
    """(operator, variable) of ``reduction`` clause items as written: ``"+:s"``,
    ``"inscan, +: a, b"``, ``"+:hist[:B]"``. The operator ends at the first colon: an
    array section's own colon comes after it (splitting at the last one read
    ``hist[:B]`` as a variable ``B]`` reduced by ``+:hist[``)."""
    out = []
    for item in items:
        op, _, names = item.partition(":")
        op = op.split(",")[-1].strip()
        out.extend((op, name) for name in clause_names([names]))
    return out


def linear_steps(items: list[str]) -> dict[str, int]:
    """Variable -> step of ``linear(j)``, ``linear(j, k: 2)`` items; forms with a
    modifier (``val(j)``, ``step(2)``) or a step that is not an integer are left out
    (those variables stay what they are without the clause: shared)."""
    out: dict[str, int] = {}
    for item in items:
        names, _, step_text = item.partition(":")
        try:
            step = int(step_text.strip(), 0) if step_text.strip() else 1
        except ValueError:
            continue
        for n in names.split(","):
            n = n.strip()
            if n.isidentifier():
                out[n] = step
    return out


@dataclass(frozen=True)
class Segment:
    """An inner loop over one row of a compressed layout: ``lo = A[at] <= k`` and
    ``k`` below ``hi = A[at + 1]`` (CSR's ``rowptr``, a graph's offsets), ``lo`` and
    ``hi`` symbols of the iteration's own. Two iterations reading one ``at`` read one
    pair of values (``A`` is not written by the loop); where ``A`` does not decrease over
    the loop's rows (``param`` >= 1: a scan at the directive), rows of different ``at``
    do not overlap."""

    param: str  # the scan's parameter: 1 where the offsets do not decrease
    at: Poly
    lo: str
    hi: str


@dataclass
class Bound:
    """One loop level around a reference: ``lower <= sym <= upper`` (None: unbounded),
    stepping by ``step`` from ``start`` (step None: a stride the walk does not know)."""

    sym: str
    lower: Poly | None
    upper: Poly | None
    step: int | None = 1
    start: Poly | None = None
    # not a loop but a value an iteration computes, pinned by constraints: ("div", n, d)
    # for C's ``n / d`` (truncating, d > 0: ``i = k / M`` of a flattened index), ("fdiv",
    # n, 2^k) for ``n >> k`` and the floor under ``n & (2^k - 1)``, ("min",
    # a, b) and ("max", a, b) for ``a < b ? a : b`` and the like (a tile's last row)
    defined: tuple[str, Poly, Poly] | None = None
    # a step fixed for the loop but known only at run time (``ii += tile``): two
    # iterations' values differ by at least it (OpenMP and a terminating signed loop
    # both need it positive); ``step`` is None then
    stride: Poly | None = None
    segment: Segment | None = None  # the loop runs over one row of offsets (``Segment``)

    @property
    def exact(self) -> bool:
        """Every value the loop takes is known (affine bounds, known stride): what a
        write must have for the elements it surely writes to be known."""
        from autotune.analysis.proof.poly import is_affine, symbols

        polys = [self.lower, self.upper] + ([self.start] if self.step not in (1, -1) else [])
        return (
            self.step is not None
            and all(p is not None and is_affine(p) for p in polys)
            # a value the walk did not know ("u" symbols) would be any value: not exact
            and not any(s.startswith("u") for p in polys for s in symbols(p))
        )


@dataclass
class Ref:
    """One memory reference made by an iteration.

    ``objects``: what it may touch (None: anything). ``index``: one Poly per
    dimension (None: not analysable). ``kind``: "r", "w", or "u" (a commutative
    update made atomically, with ``op``). ``domain``: the loops around it, the
    distributed ones first. ``owner``: "shared", or "private" (a thread's own copy
    that outlives one iteration: region locals, private clauses, threadprivate).
    """

    objects: frozenset[str] | None
    index: list[Poly | None] | None
    kind: str
    line: int
    text: object  # str(text) is the C text (made lazily for array references)
    domain: list[Bound] = field(default_factory=list)
    owner: str = "shared"
    op: str | None = None
    # sizes of dimensions 1..n-1: a constant, a polynomial in the sizes (a variable-length
    # array's), or None
    inner: list[int | Poly | None] = field(default_factory=list)
    # the declared length of the first dimension of an array the subscripts index
    # (``double c[N]``: N), None for a pointer, a parameter, or a length not constant
    outer: int | None = None
    size: int | None = None  # bytes of the element it reads or writes (None: not known)
    path: tuple[int, ...] = ()  # statement positions, block by block: program order
    must: bool = True  # runs at every point of its domain (no branch around it)
    depth: int = 0  # the branches around it (a write as deep as an object's birth is sure)
    # a C string from this place (its index's text, and the loops around the call): a
    # read that stops at the terminator (strlen, %s), or a write that puts one there
    # (snprintf, strcpy)
    string: tuple[str, tuple[str, ...]] | None = None
    name: str = ""  # the variable it goes through, for messages
    value: str | None = None  # a write of this constant (every writer leaves the same)
    lock: str | None = None  # an update's atomic or critical construct (refs.lock)
    group: tuple[int, str] | None = None  # (double-buffer group, pointer) it goes through
    # bounds on parameters where it runs (enclosing sequential loops: 0 <= P_i <= P_n - 1)
    given: tuple[Bound, ...] = ()
    # a function's own variable (local or parameter, not static) whose address is never
    # taken: no pointer reaches it, not even one the proof knows nothing about
    hidden: bool = False
    # (the struct type's C text, its member) where the reference lies in one member of a
    # struct element (``p[i].x[c]``, ``q->f[k]``) while its index is the element's
    member: tuple[str, str] | None = None
    # the leading subscripts that place the struct element a member access lies in (the
    # rest place it within the member array: ``f->v[i]``); None: all of them
    element_rank: int | None = None
    # made inside the loop's ordered region, which runs in the iterations' order
    ordered: bool = False
    file: str = ""  # the file it is in, where that is not the loop's (a called function's)
    # the place in its object of the pointer the subscripts start from (dimension by
    # dimension; None: not known): the index less it is what the subscripts add
    start: list[Poly | None] | None = None

    @property
    def at(self) -> str:
        """Where messages point: ``line 12``, or ``physics.c:12`` in another file."""
        return f"{self.file}:{self.line}" if self.file else f"line {self.line}"


@dataclass
class IterationFacts:
    """Everything the verdict needs about one iteration of the worksharing loop."""

    refs: list[Ref] = field(default_factory=list)
    effects: list[str] = field(default_factory=list)  # order-visible effects, as reasons
    # ``omp_get_thread_num()`` read in the loop itself as a subscript (``part[...] += x``):
    # (call, reason); an effect unless it only picks the thread's row of per-thread partials
    thread_subscripts: list[tuple[c_ast.Node, str]] = field(default_factory=list)
    # I/O effects whose output differs between iterations (``printf("bad %d", i)``): an
    # error path ending the program does not make them order-free
    varying_io: set[str] = field(default_factory=set)
    reassociates: list[str] = field(default_factory=list)
    exposed: dict[str, int] = field(default_factory=dict)  # private scalar -> line read early
    # members of a thread's own struct read before the iteration set them (the member,
    # the part whose bytes it shares, the line: ``s.w``), and the parts stores reach: such
    # a read carries a value over only where the loop stores to that member
    # (firstprivate members no iteration sets keep the copy)
    exposed_parts: dict[str, list[tuple[str, str, int]]] = field(default_factory=dict)
    stored_parts: dict[str, set[str]] = field(default_factory=dict)
    # variables declared in the iteration read before every path set them (``lifetimes``):
    # name -> (line read, line declared, the member path read)
    stale_locals: dict[str, tuple[int, int, str]] = field(default_factory=dict)
    # the iteration's own arrays and blocks made with no value (a declared array, a
    # malloc'd block: object -> (name, line, what made it, the branches around that)),
    # and every touch of them
    unset_objects: dict[str, tuple[str, int, str, int]] = field(default_factory=dict)
    own_refs: list[Ref] = field(default_factory=list)
    end_defined: set[str] | None = None  # privates surely set when an iteration ends
    updates: dict[str, set[str]] = field(default_factory=dict)  # name -> update operators
    plain: dict[str, int] = field(default_factory=dict)  # name -> line of a non-update use
    invariant_reads: dict[str, int] = field(default_factory=dict)  # outside values read
    # objects whose elements the walk took as parameters: by the parameter's symbol, and
    # those it took at a measured value (a constant: no symbol to follow)
    sizes_read: dict[str, set[str]] = field(default_factory=dict)
    # the (struct type, member) of each size read as a member, by its C text
    size_members: dict[str, tuple[str, str]] = field(default_factory=dict)
    sizes_fixed: dict[str, set[str]] = field(default_factory=dict)  # by C text
    params: set[str] = field(default_factory=set)  # C texts of the sizes the walk met

    def effect(self, reason: str) -> None:
        if reason not in self.effects:
            self.effects.append(reason)


@dataclass
class Proof:
    """What the proof found: reasons to keep the mapping (empty: proven), notes."""

    order: list[str] = field(default_factory=list)
    reassociates: list[str] = field(default_factory=list)
    schedule_only: list[str] = field(default_factory=list)  # keep the schedule, not threads
    threads_only: list[str] = field(default_factory=list)  # keep the thread count alone
    sizes: set[str] = field(default_factory=set)  # C texts of the sizes its walks met
    # reasons that are a subscript leaving its row (``a[i][j + 1]`` at ``j = M - 1``)
    overflows: list[str] = field(default_factory=list)

    def add(self, reason: str) -> None:
        if reason not in self.order:
            self.order.append(reason)


@dataclass
class LoopSite:
    """A loop as the finder saw it, with the region around it (None: combined or orphaned)."""

    for_node: c_ast.For
    func: c_ast.FuncDef
    ast: c_ast.FileAST
    clauses: Clauses
    region_clauses: Clauses | None
    region_node: c_ast.Node | None
    orphaned: bool

"""Plain data passed from the front end to every later stage.

Every other stage (variants, measurement, models, build hook) consumes
``LoopRecord``; keep these dataclasses free of pycparser objects so they
serialise to JSON and survive a process boundary.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING

from autotune.errors import UserError
from autotune.render import data_frame

if TYPE_CHECKING:
    import numpy as np


@dataclass(frozen=True, eq=False)
class UniformWork(Sequence):
    """The same work in each of ``n`` iterations, in closed form: a list of millions of
    equal numbers costs memory, time and megabytes sent to every campaign worker."""

    value: float
    n: int

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i):  # an index or a slice
        if isinstance(i, slice):
            return [self.value] * len(range(*i.indices(self.n)))
        if not -self.n <= i < self.n:
            raise IndexError(i)
        return self.value

    def __iter__(self) -> Iterator[float]:
        return iter([self.value] * self.n)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, UniformWork):
            return (self.value, self.n) == (other.value, other.n)
        if isinstance(other, Sequence):
            return len(other) == self.n and all(x == self.value for x in other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.value, self.n))

    def __array__(self, dtype=None, copy=None) -> np.ndarray:
        import numpy as np  # not at import: the front end starts without numpy

        return np.full(self.n, self.value, dtype=dtype or float)

    def total(self) -> float:
        return self.value * self.n


@dataclass
class Clauses:
    """Parsed clauses of one OpenMP directive; untuned ones are kept verbatim."""

    schedule: str | None = None  # static | dynamic | guided | auto | runtime
    chunk: str | None = None  # chunk expression as written
    num_threads: str | None = None
    collapse: int = 1
    reduction: list[str] = field(default_factory=list)  # "op:var,var" as written
    private: list[str] = field(default_factory=list)
    firstprivate: list[str] = field(default_factory=list)
    lastprivate: list[str] = field(default_factory=list)
    # lastprivate(conditional: x): x ends with the value of the sequentially last
    # iteration that set it, whatever the schedule or team (OpenMP 5.0)
    lastprivate_conditional: list[str] = field(default_factory=list)
    linear: list[str] = field(default_factory=list)  # "j:2" items as written
    shared: list[str] = field(default_factory=list)
    copyin: list[str] = field(default_factory=list)  # threadprivate names copied from master
    default: str | None = None
    nowait: bool = False
    ordered: bool = False
    if_clause: str | None = None
    other: list[str] = field(default_factory=list)  # clauses we do not interpret, verbatim

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class Directive:
    """One ``#pragma omp ...`` line as the user wrote it."""

    text: str  # pragma text after "#pragma", e.g. "omp parallel for schedule(static)"
    kind: str  # "parallel for" | "for" | "parallel" | "sections" | "task" | ...
    file: str  # user's file (from #line markers)
    line: int  # 1-based line of the #pragma in ``file``
    clauses: Clauses = field(default_factory=Clauses)

    def to_dict(self) -> dict:
        return {
            "text": self.text,
            "kind": self.kind,
            "file": self.file,
            "line": self.line,
            "clauses": self.clauses.to_dict(),
        }


@dataclass
class LoopLevel:
    """One ``for`` of a nest: ``for (var = lower; var <op> upper; var += step)``.

    Bounds are C expression strings after macro expansion; ``trip_count`` is
    set when the level's count does not depend on outer loop variables and
    evaluates to a constant, otherwise None (see ``depends_on``).
    """

    var: str
    lower: str
    upper: str
    op: str  # "<", "<=", ">", ">=", "!="
    step: int | None  # signed step, None when not a constant
    trip_count: int | None = None
    depends_on: list[str] = field(default_factory=list)  # outer vars in the bounds
    line: int = 0
    step_text: str = ""  # a step that is no constant (``ii += tile``), as written


@dataclass
class OpCounts:
    """Arithmetic operations, by kind, for one execution of the loop body.

    ``counts`` maps an operation name (``add``, ``mul``, ``div``, ``cmp``,
    ``sqrt``...) to how many times it runs per iteration of the innermost
    body; ``weighted`` applies the weight table.
    """

    counts: dict[str, float] = field(default_factory=dict)
    weighted: float = 0.0


@dataclass
class InnerSplit:
    """One distributed iteration's work split at the nest's second loop, whose trip
    count the source may not give (neighbour lists, CSR rows): what one iteration of
    that loop costs, the loops inside it included, and what the rest costs. A profile
    run's sampled trip counts of that loop scale the first (analysis.unit)."""

    outer_ops: dict[str, float]  # per distributed iteration, outside the second loop
    step_ops: dict[str, float]  # per iteration of the second loop
    outer_weighted: float
    step_weighted: float
    innermost_per_step: float  # innermost-body executions per iteration of the second loop


@dataclass
class LoopRecord:
    """Everything the later stages need about one OpenMP worksharing loop."""

    id: str  # "<file>:<line of the for statement>"
    file: str
    line: int  # line of the ``for`` statement in the user's file
    function: str
    directive: Directive  # the worksharing directive (``parallel for`` or ``for``)
    parallel: Directive | None  # directive owning the threads (same as directive for combined)
    column: int = 0  # 1-based column of ``for`` (pycparser coord), 0 when unknown
    nest: list[LoopLevel] = field(default_factory=list)  # outermost (parallel) first
    enclosing: list[LoopLevel] = field(default_factory=list)  # sequential loops around it
    trip_count: int | None = None  # iterations distributed over threads (after collapse)
    iterations: int | None = None  # total innermost-body executions of one loop run
    executions: int | None = None  # times the parallel loop runs (product of enclosing trips)
    # the distributed trip count differs between those runs (its bounds read an enclosing
    # loop's variable): trip_count is one run's, at that variable's middle value
    trip_varies: bool = False
    ops_per_iteration: OpCounts = field(default_factory=OpCounts)  # innermost body
    weighted_ops: float | None = None  # total weighted ops for one loop run
    ops: dict[str, float] = field(default_factory=dict)  # total op counts for one loop run
    # weighted ops per distributed iteration (UniformWork when every iteration is alike)
    work_per_iteration: Sequence[float] | None = None
    sync_ops: float = 0.0  # atomic/critical executions in one run (contended when threads > 1)
    footprint_bytes: int | None = None  # distinct bytes touched by one loop run
    footprint_bytes_per_thread: int | None = None  # max over threads, static schedule
    threads: int = 1  # thread count the per-thread figures were computed for
    arrays: list[dict] = field(default_factory=list)  # per-array footprint detail
    symbolic: list[str] = field(default_factory=list)  # bounds that stayed symbolic
    # trip_count, iterations, footprints as barvinok formulas in the sizes the source
    # leaves open (analysis.symbolic; made by analyze, empty on the ranking path)
    formulas: dict = field(default_factory=dict)
    tunable: bool = True
    reason: str = ""  # why not tunable; empty when tunable
    # The legality gate: dimensions ("schedule", "threads") kept as written, with why.
    kept: dict[str, str] = field(default_factory=dict)
    reassociates: list[str] = field(default_factory=list)  # floating-point reassociation notes
    # the thread count is the parallel region's, shared with other loops, and may change for
    # the region as a whole (tuned per region, never per loop)
    region_threads: bool = False
    # a C condition on the program's sizes under which the freed dimensions are proven
    # (empty: proven for every size); variants run behind ``if (guard)``, else as written
    guard: str = ""
    # directive lines written as a macro invocation (line -> the directive it expands to,
    # checked to make the same program as its _Pragma): rewritten at the use site
    directive_sites: dict[int, str] = field(default_factory=dict)
    # sizes (C texts) the proof of a kept loop met that a run-time test could read: a
    # profile run measures them, for a proof at exactly those values (proof.specialise)
    proof_sizes: list[str] = field(default_factory=list)
    # the values behind an equality guard (C text -> value): stored with a tuned choice,
    # so that a build, which runs nothing, can prove the loop at them again
    guard_sizes: dict[str, int] = field(default_factory=dict)
    # where the trip counts and sizes came from: "static" (the source), "profile" (values
    # measured at the loop's entry by one run of the original: ``profile``), "unknown"
    facts: str = "static"
    profile: dict = field(default_factory=dict)  # {"args": [...], "values": {...}, ...}
    nest_locals: list[str] = field(default_factory=list)  # names declared inside the nest
    # names the loop's body assigns (x = ..., x++): never a size, their value changes
    nest_written: list[str] = field(default_factory=list)
    # the program's own omp_set_schedule() calls ("file:line"): a run-time schedule chosen
    # from the environment would be overridden, so each variant is compiled on its own
    sets_schedule: list[str] = field(default_factory=list)
    # the program's other loops written schedule(runtime) ("file:line"): OMP_SCHEDULE set for
    # a variant would reschedule them too, so each variant is compiled on its own
    runtime_elsewhere: list[str] = field(default_factory=list)
    # the program's reads of its run-time schedule (omp_get_schedule(), "file:line"):
    # OMP_SCHEDULE set for a variant would change what they read, so each variant is
    # compiled on its own
    reads_schedule: list[str] = field(default_factory=list)
    # libgomp starts the threads a team has beyond the team before it, every time (the
    # ones beyond a smaller team exit): the num_threads text (None: the default) of each
    # team the innermost sequential loop around this loop's team starts, in source order,
    # and which of them is this loop's (-1: its team is started once, or by a caller)
    team_cycle: list[str | None] = field(default_factory=list)
    team_position: int = -1
    # the threads the original runs the loop with, measured by the profile run (the
    # program may set its own count); None: not measured, or not the same every time
    team: int | None = None
    team_step: str = ""  # "file:line" of that sequential loop ('' without a cycle)
    warnings: list[str] = field(default_factory=list)
    # each loop body's weighted ops per execution, with the loops around it (plain headers)
    # and its branch factor: weighted_ops as a formula (analysis.symbolic); not in to_dict
    op_bodies: list[dict] = field(default_factory=list, repr=False)
    # the work split at the nest's second loop, for a profile's sampled trip counts of
    # it; not in to_dict
    inner_split: InnerSplit | None = field(default=None, repr=False)
    # per-thread footprints the ranking computed, by (threads, chunk pattern): the costly
    # part of ranking, asked again per held-out fold in calibration; not part of the record
    footprint_cache: dict = field(default_factory=dict, repr=False, compare=False)

    @property
    def only_size_unknown(self) -> bool:
        """Not tunable only because its trip count is not in the source (a profile run
        tells it): a variant tuned with that profile may still be applied to it, as the
        build hook does, within what the legality gate keeps."""
        parts = [p for p in _top_level_parts(self.reason) if p]
        return (
            not self.tunable
            and bool(parts)
            and all(p.startswith("trip count of the parallel loop is unknown") for p in parts)
        )

    @property
    def own_binaries(self) -> bool:
        """Variants must each be compiled with their clause: the schedule is kept as
        written (``schedule(runtime)`` would change it), or the program sets its own, or
        reads it, or has other loops that run what OMP_SCHEDULE says."""
        return "schedule" in self.kept or bool(
            self.sets_schedule or self.runtime_elsewhere or self.reads_schedule
        )

    @property
    def key(self) -> str:
        """The loop's name within one file content (``line:column``): stored runs
        and tuned choices use it with the content hash, so a file reached by
        another path (``./a.c``, ``/abs/a.c``, a build directory) is the same."""
        return f"{self.line}:{self.column}"

    def to_dict(self) -> dict:
        """JSON form with the field names promised by ``autotune analyze --json``."""
        # asdict deep-copies every field: leave out the per-iteration work list
        # (millions of numbers for a big loop) instead of copying then dropping it.
        work, self.work_per_iteration = self.work_per_iteration, None
        cache, self.footprint_cache = self.footprint_cache, {}
        bodies, self.op_bodies = self.op_bodies, []
        split, self.inner_split = self.inner_split, None
        try:
            d = asdict(self)
        finally:
            self.work_per_iteration, self.footprint_cache = work, cache
            self.op_bodies, self.inner_split = bodies, split
        d["directive"] = self.directive.to_dict()
        d["clauses"] = self.directive.clauses.to_dict()
        d["parallel"] = self.parallel.to_dict() if self.parallel else None
        d["directive_text"] = self.directive.text
        d["directive"] = self.directive.kind
        d["directive_line"] = self.directive.line
        d.pop("work_per_iteration", None)
        d.pop("footprint_cache", None)
        d.pop("op_bodies", None)
        d.pop("inner_split", None)
        return d


@dataclass
class RegionRecord:
    """A parallel structure node other than a worksharing loop (sections, task)."""

    id: str
    file: str
    line: int
    function: str
    directive: Directive
    children: list[str] = field(default_factory=list)  # ids of nested records


@dataclass
class TranslationUnit:
    """The result of analysing one C file with a given set of defines."""

    path: str
    defines: dict[str, str] = field(default_factory=dict)
    loops: list[LoopRecord] = field(default_factory=list)
    regions: list[RegionRecord] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    # whether a profile run measured the run-time sizes: made, reused, or why not
    profile_note: str = ""
    # the user's headers (and other program files) the analysis read: a decision kept for
    # the file holds only while they are unchanged
    headers: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {
            "file": self.path,
            "defines": dict(self.defines),
            "loops": [r.to_dict() for r in self.loops],
            "warnings": list(self.warnings),
            "profile": self.profile_note,
        }

    def to_frame(self):  # a pandas.DataFrame, one row per loop
        keys = ("id", "function", "line", "trip_count", "iterations", "executions")
        keys += ("weighted_ops", "footprint_bytes", "tunable", "reason")
        return data_frame([{k: d.get(k) for k in keys} for d in self.to_dict()["loops"]])


def matches(record: LoopRecord, wanted: str) -> bool:
    """True when ``wanted`` names the loop: its id ``file:line``, its line, ``name.c:line``,
    or any trailing part of the id's path (``src/prog.c:12``)."""
    w = wanted.strip()
    return w in (
        record.id,
        str(record.line),
        f"{record.file.rsplit('/', 1)[-1]}:{record.line}",
    ) or record.id.endswith("/" + w)


def select_loops(
    records: list[LoopRecord], wanted: list[str] | tuple[str, ...]
) -> list[LoopRecord]:
    """The loops named by ``wanted`` (all when empty), in file order; the one loop
    selector of every command. UserError lists the loops when a name matches none."""
    if not wanted:
        return list(records)
    for w in wanted:
        if not any(matches(r, w) for r in records):
            known = ", ".join(r.id for r in records) or "none"
            raise UserError(f"no loop matches --loop {w}; loops: {known}")
    return [r for r in records if any(matches(r, w) for w in wanted)]


def _top_level_parts(reason: str) -> list[str]:
    """``reason`` split at the "; " between its parts, not at one inside the parentheses
    of a part (``unknown (ii step bs (...); ii < n (...))`` is one part)."""
    parts, depth, start = [], 0, 0
    for k, ch in enumerate(reason):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0 and reason.startswith("; ", k):
            parts.append(reason[start:k])
            start = k + 2
    parts.append(reason[start:])
    return parts

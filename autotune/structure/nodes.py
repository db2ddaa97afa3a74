"""The program's parallel structure as plain data: one ``StructNode`` per construct.

Every later stage (instrumentation, measurement, prediction, rendering) reads
these dataclasses, never pycparser objects, so a tree can be printed, dumped
to JSON and handed across modules without the AST.

Node kinds and the skeleton each one is modelled by:

==========  ============  ======================================================
kind        skeleton      what
==========  ============  ======================================================
program     sequence      ``main``: top-level nodes plus the sequential rest
call        sequence      a call of a user function that holds OpenMP constructs
parallel    sequence      a ``parallel`` region: its children run one after another
iteration   iteration     a sequential loop around parallel work (time steps)
loop        parmap/farm   a worksharing loop (uniform work: parMap, else farm)
sections    composition   ``sections``: Y = max over the sections (seed 002)
section     task          one section: a stochastic task time
dc          dc            a function that spawns itself as tasks (divide and conquer)
==========  ============  ======================================================
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

KINDS = ("program", "call", "parallel", "iteration", "loop", "sections", "section", "dc")

# How a timed span is measured (see regions.py):
# encounter     - the thread that executes the statement times it;
# team_ws       - a worksharing construct met by a whole team: barrier, thread 0
#                 times it, its own implicit end barrier closes the interval;
# team_ws_nowait - the same without an end barrier (thread 0's share: a lower bound);
# team_block    - a statement every thread of a team runs: barriers on both sides.
MODES = ("encounter", "team_ws", "team_ws_nowait", "team_block")


@dataclass
class TextSpan:
    """Where a node's timing goes in the user's text (offsets into the original file)."""

    begin: int  # offset where the opening code is inserted
    end: int  # offset just past the statement: the closing code goes here
    begin_line: int  # user line at ``begin`` (for the #line after the opening code)
    end_line: int  # user line at ``end``
    mode: str = "encounter"
    samples: bool = False  # record every execution's time (sections)

    def to_dict(self) -> dict:
        return {
            "begin_line": self.begin_line,
            "end_line": self.end_line,
            "mode": self.mode,
            "samples": self.samples,
        }


@dataclass
class StructNode:
    """One node of the structure tree; ``id`` is also its timing id."""

    kind: str
    skeleton: str
    id: str  # "<file>:<line>" (a loop's id is its LoopRecord id)
    file: str
    line: int
    label: str  # short text for people: "omp parallel for", "for (t = 0; t < TSTEPS; t++)"
    function: str  # function the construct is written in
    children: list[StructNode] = field(default_factory=list)
    trip_count: int | None = None  # iteration: k; loop: distributed iterations
    facts: dict[str, object] = field(default_factory=dict)  # branching, depth, uniformity...
    context: str = "serial"  # serial | team | one: who runs the statement
    span: TextSpan | None = None  # None: not timed (see notes)
    duplicate_of: str | None = None  # same text reached again (a second call site)
    notes: list[str] = field(default_factory=list)

    @property
    def timed(self) -> bool:
        """Measured: a span to wrap, or the whole program (timed from start to exit)."""
        return (self.span is not None or self.kind == "program") and self.duplicate_of is None

    def walk(self, depth: int = 0) -> Iterator[tuple[StructNode, int]]:
        """Pre-order traversal with depths (root depth 0)."""
        yield self, depth
        for child in self.children:
            yield from child.walk(depth + 1)

    def find(self, node_id: str) -> StructNode | None:
        return next((n for n, _ in self.walk() if n.id == node_id), None)

    def to_dict(self, extra: dict[str, dict] | None = None) -> dict:
        """Nested JSON form; ``extra`` maps node id -> more keys (measurement, prediction)."""
        d: dict[str, object] = {
            "kind": self.kind,
            "skeleton": self.skeleton,
            "id": self.id,
            "file": self.file,
            "line": self.line,
            "label": self.label,
            "function": self.function,
            "trip_count": self.trip_count,
            "facts": dict(self.facts),
            "context": self.context,
            "timed": self.timed,
            "timing": self.span.to_dict() if self.span else None,
            "duplicate_of": self.duplicate_of,
            "notes": list(self.notes),
        }
        if extra and self.id in extra and self.duplicate_of is None:
            d.update(extra[self.id])
        d["children"] = [c.to_dict(extra) for c in self.children]
        return d


@dataclass
class ProgramTree:
    """The tree of one file under one set of defines, and what the walk could not follow."""

    path: str
    defines: dict[str, str]
    root: StructNode
    warnings: list[str] = field(default_factory=list)

    def nodes(self) -> list[StructNode]:
        return [n for n, _ in self.root.walk()]

    def trip_counts(self) -> dict[str, int | None]:
        """Iteration node id -> k (what the prediction scales executions by)."""
        return {n.id: n.trip_count for n in self.nodes() if n.kind == "iteration"}

    def to_dict(self, extra: dict[str, dict] | None = None) -> dict:
        return {
            "file": self.path,
            "defines": dict(self.defines),
            "warnings": self.warnings,
            "tree": self.root.to_dict(extra),
        }

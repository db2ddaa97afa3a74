"""Nowait across a call: orphaned worksharing loops and the calls that run them.

OpenMP maps the same iterations to the same threads only for static schedules with
equal trip counts and chunks in one region, and a loop with ``nowait`` lets the team
run on before it has finished. The region rules see such chains inside one body
(``region_rules``); across a call they do not: a function whose last worksharing loop
has ``nowait`` and which returns without a barrier ("open") leaves the team running
into whatever its caller does next, and a function whose first worksharing loop comes
before any barrier of its own ("open at entry") runs it straight after whatever its
caller did before. Such a loop, and the loop on the other side of the call, keep their
schedules: the pair leans on the static mapping (a producer's ``a[i] = ...; nowait``
and a consumer's ``... = a[i]`` in the next function called, each printing another
result under another schedule).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pycparser import c_ast

from autotune.analysis.region_rules import Event, RegionEvents
from autotune.frontend.finder import FoundLoop


@dataclass
class WorksharingFunction:
    """A function holding orphaned worksharing loops, read as a region of its own."""

    name: str
    events: list[Event]
    open_end: int = 0  # line of the nowait loop it returns after without a barrier (0: none)
    open_entry: set[int] = field(default_factory=set)  # id(for_node) before its first barrier

    @classmethod
    def of(cls, func: c_ast.FuncDef) -> WorksharingFunction:
        walker = RegionEvents(set())
        walker._statement(func.body)
        events = walker.events
        out = cls(func.decl.name, events)
        loops = [i for i, e in enumerate(events) if e.kind == "loop"]
        if loops and not any(e.kind == "barrier" for e in events[loops[-1] :]):
            out.open_end = events[loops[-1]].line
        for e in events:
            if e.kind == "barrier":
                break
            if e.kind == "loop" and e.for_node is not None:
                out.open_entry.add(id(e.for_node))
        return out


def worksharing_functions(found: list[FoundLoop]) -> dict[str, WorksharingFunction]:
    """Every function of the file holding an orphaned ``omp for``, by name."""
    out: dict[str, WorksharingFunction] = {}
    for f in found:
        if f.parallel is None and f.func is not None and f.func.decl.name not in out:
            out[f.func.decl.name] = WorksharingFunction.of(f.func)
    return out


@dataclass
class OpenCalls:
    """What one body's calls decide: its own loops that keep their schedule, and the
    functions it enters while a nowait is still open (their loops open at entry keep
    theirs)."""

    kept: dict[int, str] = field(default_factory=dict)  # id(for_node) -> why
    entered: dict[str, str] = field(default_factory=dict)  # function name -> why


def open_across_calls(events: list[Event], ws: dict[str, WorksharingFunction]) -> OpenCalls:
    """Walk ``events`` (a region's body, or a function's) in order, the nowait loops and
    open-ended calls since the last barrier in hand."""
    out = OpenCalls()
    open_loops: list[Event] = []
    open_call = ""  # an open-ended function called since the last barrier
    for e in events:
        if e.kind == "barrier":
            open_loops, open_call = [], ""
            continue
        if e.kind == "loop":
            if open_call and e.for_node is not None:
                out.kept.setdefault(id(e.for_node), _after_call(open_call, ws))
            if e.nowait:
                open_loops.append(e)
            continue
        for name in sorted(e.calls & ws.keys()):
            if open_loops or open_call:
                before = (
                    f"{open_call}()"
                    if open_call
                    else f"the nowait loop at line {open_loops[-1].line}"
                )
                out.entered.setdefault(
                    name,
                    f"an 'omp for' before any barrier of {name}(), which line {e.line} calls "
                    f"while {before} may still run: the pair relies on the same static "
                    "iteration-to-thread mapping",
                )
                for loop in open_loops:
                    out.kept.setdefault(
                        id(loop.for_node),
                        f"a nowait loop followed, before any barrier, by the call of {name}() "
                        f"at line {e.line}, whose 'omp for' may rely on the same static "
                        "iteration-to-thread mapping",
                    )
            if ws[name].open_end:
                open_call = name
            else:  # it returns after a barrier: what ran before it has finished
                open_loops, open_call = [], ""
    return out


def _after_call(name: str, ws: dict[str, WorksharingFunction]) -> str:
    return (
        f"runs after {name}(), whose 'omp for nowait' at line {ws[name].open_end} ends it "
        "without a barrier: the pair relies on the same static iteration-to-thread mapping"
    )


def open_end_reason(ws: dict[str, WorksharingFunction]) -> str:
    """Why every loop open at entry keeps its schedule when some function of the file
    ends open: a caller this file does not show may call it just before (''
    when none ends open)."""
    names = sorted(n for n, w in ws.items() if w.open_end)
    if not names:
        return ""
    return (
        f"an 'omp for' before any barrier of its function, while {names[0]}() ends with an "
        f"'omp for nowait' (line {ws[names[0]].open_end}) and no barrier: a caller may run "
        "the two back to back, and the pair relies on the same static mapping"
    )

"""Nowait across a call: orphaned worksharing loops and the calls that run them.

OpenMP maps the same iterations to the same threads only for static schedules with
equal trip counts and chunks in one region, and a loop with ``nowait`` lets the team
run on before it has finished. The region rules see such chains inside one body
(``region_rules``); across a call they do not: a function that returns while a nowait
loop of its own (or of a function it calls) may still run ("ends open") leaves the team
running into whatever its caller does next, and a function that runs worksharing loops
before any barrier ("loops at entry", also through the functions it calls) runs them
straight after whatever its caller did before. Such loops, and the loops on the other
side of the call, keep their schedules: the pair leans on the static mapping (a
producer's ``a[i] = ...; nowait`` and a consumer's ``... = a[i]`` in the next function
called each printed another result under another schedule).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pycparser import c_ast

from autotune.analysis.names import POINTER_CALL
from autotune.analysis.region_events import Event, RegionEvents

MAX_ROUNDS = 32  # the fixpoint over calls (recursion settles in a few)


@dataclass
class FunctionFlow:
    """What calling one function does to the team's open nowait loops."""

    name: str
    events: list[Event]
    effect: str = "none"  # "open": returns with a nowait running; "close": after a barrier
    open_line: int = 0  # the nowait loop, or the call, that leaves it open
    entry: frozenset[int] = frozenset()  # id(for_node) of loops it runs before a barrier


def function_flows(funcs: list[c_ast.FuncDef]) -> dict[str, FunctionFlow]:
    """Every function of ``funcs``, read as a region of its own, its calls followed."""
    flows: dict[str, FunctionFlow] = {}
    for func in funcs:
        walker = RegionEvents(set())
        walker._statement(func.body)
        flows[func.decl.name] = FunctionFlow(func.decl.name, walker.events)
    for _ in range(MAX_ROUNDS):
        changed = False
        for flow in flows.values():
            now = _scan(flow.events, flows)
            if now != (flow.effect, flow.open_line, flow.entry):
                flow.effect, flow.open_line, flow.entry = now
                changed = True
        if not changed:
            break
    return flows


def callees(e: Event, flows: dict[str, FunctionFlow]) -> tuple[list[str], bool]:
    """The functions of the file ``e`` may call, and whether it surely calls them: a call
    through a pointer may reach any of them, so it is taken to run every one's loops
    and none of its barriers."""
    if POINTER_CALL in e.calls:
        return sorted(flows), False
    return sorted(e.calls & flows.keys()), True


def _scan(events: list[Event], flows: dict[str, FunctionFlow]) -> tuple[str, int, frozenset]:
    effect, line, entry, at_entry = "none", 0, set(), True
    escaped = 0  # a return taken while a nowait ran: the function may end open there
    for e in events:
        if e.jump in ("return", "goto") and effect == "open":
            escaped = escaped or line
        if e.kind == "barrier":
            effect, at_entry = "close", False
        elif e.kind == "loop":
            if at_entry and e.for_node is not None:
                entry.add(id(e.for_node))
            if e.nowait:  # a loop without nowait is followed by its barrier's event
                effect, line = "open", e.line
        else:
            names, sure = callees(e, flows)
            for name in names:
                callee = flows[name]
                if at_entry:
                    entry |= callee.entry
                if callee.effect == "open":
                    effect, line = "open", e.line
                elif callee.effect == "close" and sure:
                    effect, at_entry = "close", False
    if escaped and effect != "open":
        effect, line = "open", escaped
    return effect, line, frozenset(entry)


@dataclass
class OpenCalls:
    """What one body's calls decide: its own loops that keep their schedule, and the
    functions it enters while a nowait is still open (their loops at entry keep theirs)."""

    kept: dict[int, str] = field(default_factory=dict)  # id(for_node) -> why
    entered: dict[str, str] = field(default_factory=dict)  # function name -> why


def open_across_calls(events: list[Event], flows: dict[str, FunctionFlow]) -> OpenCalls:
    """Walk ``events`` (a region's body, or a function's) in order, the nowait loops and
    open-ended calls since the last barrier in hand."""
    out = OpenCalls()
    open_loops: list[Event] = []
    open_call = ""  # a function that ended open, called since the last barrier
    for e in events:
        if e.kind == "barrier":
            open_loops, open_call = [], ""
            continue
        if e.kind == "loop":
            if open_call and e.for_node is not None:
                out.kept.setdefault(id(e.for_node), _after_call(open_call, flows))
            if e.nowait:
                open_loops.append(e)
            continue
        names, sure = callees(e, flows)
        closes = sure and any(flows[n].effect == "close" for n in names)
        how = "called" if sure else "reachable by the call through a pointer"
        for name in names:
            callee = flows[name]
            if (open_loops or open_call) and callee.entry:
                before = (
                    f"{open_call}()"
                    if open_call
                    else f"the nowait loop at line {open_loops[-1].line}"
                )
                out.entered.setdefault(
                    name,
                    f"an 'omp for' {name}() runs before any barrier, {how} at line {e.line} "
                    f"while {before} may still run: the pair relies on the same static "
                    "iteration-to-thread mapping",
                )
                for loop in open_loops:
                    out.kept.setdefault(
                        id(loop.for_node),
                        f"a nowait loop followed, before any barrier, by {name}() ({how} at "
                        f"line {e.line}), whose 'omp for' may rely on the same static "
                        "iteration-to-thread mapping",
                    )
            if callee.effect == "open":
                open_call = name
        if closes and not any(flows[n].effect == "open" for n in names):
            open_loops, open_call = [], ""  # it returns after a barrier: all has finished
    return out


def _after_call(name: str, flows: dict[str, FunctionFlow]) -> str:
    return (
        f"runs after {name}(), which returns while an 'omp for nowait' it runs (from line "
        f"{flows[name].open_line}) may still be running: the pair relies on the same "
        "static iteration-to-thread mapping"
    )


def open_end_reason(flows: dict[str, FunctionFlow]) -> str:
    """Why every loop a function runs before its first barrier keeps its schedule when
    some function of the file ends open: a caller this file does not show may call the
    two back to back ('' when none ends open)."""
    names = sorted(n for n, f in flows.items() if f.effect == "open")
    if not names:
        return ""
    return (
        f"an 'omp for' before any barrier of its function, while {names[0]}() returns with "
        f"an 'omp for nowait' (line {flows[names[0]].open_line}) still running: a caller "
        "may run the two back to back, and the pair relies on the same static mapping"
    )

"""The legality rules of orphaned worksharing loops: ``omp for`` in a function whose
parallel region is in a caller.

The thread count is the caller's region's. The function is read as a region of its
own: a loop in one of its ``nowait`` chains keeps its schedule, the last one too
(a residual loop reading the fluxes a ``nowait`` flux loop wrote leans on the same
static mapping, with no ``nowait`` of its own); a ``nowait`` loop with no barrier
after it in the function keeps its schedule (the caller's code after it is not seen
here). A chain that races as written keeps every orphaned loop of its function, of
the functions calling it, and every loop of a region calling any of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pycparser import c_ast

from autotune.analysis.orphan_flow import FunctionFlow, callees
from autotune.analysis.proof.verdict import Prover
from autotune.analysis.region_events import Event, RegionEvents
from autotune.analysis.region_rules import (
    Aliasing,
    LoopsTouch,
    NameObjects,
    nowait_chains,
    racy_chain,
)
from autotune.analysis.symbols import Scope
from autotune.frontend.finder import FoundLoop, FoundRegion
from autotune.frontend.records import LoopRecord


@dataclass
class OrphanChains:
    """The nowait chains of a function holding orphaned ``omp for`` loops."""

    kept: dict[int, str] = field(default_factory=dict)  # id(for_node) -> why, per chain
    # nowait loops with no barrier after them in the function: the caller runs on
    open_loops: set[int] = field(default_factory=set)
    racy: str = ""  # why a chain races as written ('' if none does)


def orphan_chains(
    func: c_ast.FuncDef,
    scope: Scope,
    touch: LoopsTouch | None = None,
    objects: NameObjects | None = None,
    races: LoopsTouch | None = None,
    funcs: dict | None = None,
) -> OrphanChains:
    """The function's body read as a region of its own. Every loop of a chain keeps its
    schedule, the last one too (it needs no ``nowait`` to lean on the mapping); a chain
    that races as written is ``racy``. When the function does not end at a barrier,
    what runs after it in the caller's region, and may lean on the same mapping, is not
    seen here (``open_loops``)."""
    walker = RegionEvents(set(), funcs)
    walker._statement(func.body)
    events = walker.events
    out = OrphanChains()
    loops = [i for i, e in enumerate(events) if e.kind == "loop"]
    if not loops:
        return out
    out.open_loops = {id(events[i].for_node) for i in loops if _ends_open(events, i)}
    chains = nowait_chains(events, Aliasing(scope, func.body, objects), touch)
    racy = racy_chain([g for g in chains if any(e.kind == "loop" for e in g)], races)
    if racy is not None:
        text = ", ".join(str(x) for x in sorted({e.line for e in racy[0]}))
        out.racy = (
            f"lines {text} of {func.decl.name}() share data with no barrier between them, and "
            f"{racy[1]}: what one sees of the other's data depends on which thread runs which "
            "iterations, and when; any change in how the team's threads run may change it"
        )
    for group in chains:
        text = ", ".join(str(x) for x in sorted({e.line for e in group}))
        for e in group:
            if e.kind == "loop":
                out.kept[id(e.for_node)] = (
                    f"in a nowait chain with lines {text} of {func.decl.name}(): the loops "
                    "rely on the same static iteration-to-thread mapping"
                )
    return out


def _ends_open(events: list[Event], at: int) -> bool:
    """Whether the loop ``events[at]`` may still run when the function returns: no
    barrier after it, or a ``return`` before the next one."""
    for e in events[at + 1 :]:
        if e.kind == "barrier":
            return False
        if e.jump in ("return", "goto"):
            return True
    return True


def orphaned_reasons(
    found: FoundLoop, chains: OrphanChains, racy: dict[str, str]
) -> dict[str, str]:
    """What an ``omp for`` whose region is in a caller keeps (dimension -> why): the
    thread count, which is the region's; the schedule too when the loop is in a nowait
    chain of its function, ends it open, or its function reaches a chain that races
    (``racy``: ``racy_callers``)."""
    out = {
        "threads": "an orphaned 'omp for': the parallel region that sets its thread count "
        "is in a caller"
    }
    key = id(found.for_node)
    if chains.racy:
        out["schedule"] = chains.racy
    elif key in chains.kept:
        out["schedule"] = chains.kept[key]
    elif key in chains.open_loops:
        out["schedule"] = (
            "an orphaned 'omp for nowait' with no barrier after it before its function "
            "may return: the loops that follow it in the caller's region cannot be seen"
        )
    elif found.func is not None and found.func.decl.name in racy:
        out["schedule"] = racy[found.func.decl.name]
    return out


def chains_by_function(
    pairs: list[tuple[FoundLoop, LoopRecord]], ast: c_ast.FileAST, prover: Prover
) -> dict[int, OrphanChains]:
    """The nowait chains of every function holding orphaned loops (by id of the function)."""
    out: dict[int, OrphanChains] = {}
    for found, _ in pairs:
        func = found.func
        if found.parallel is None and found.for_node is not None and id(func) not in out:
            out[id(func)] = orphan_chains(
                func,
                Scope(func, ast),
                prover.loops_touch,
                prover.name_objects(func, ast),
                prover.chain_races,
                prover.prog.funcs,
            )
    return out


def racy_callers(
    chains: dict[int, OrphanChains],
    pairs: list[tuple[FoundLoop, LoopRecord]],
    flows: dict[str, FunctionFlow],
) -> dict[str, str]:
    """Functions whose nowait chain races as written, and every function that calls one
    (by name -> why): a race follows the threads' timing, which any change in how the
    team runs moves, in the caller's region too."""
    funcs = {id(f.func): f.func for f, _ in pairs if f.func is not None}
    out = {funcs[k].decl.name: c.racy for k, c in chains.items() if c.racy and k in funcs}
    changed = bool(out)
    while changed:
        changed = False
        for name, flow in flows.items():
            if name in out:
                continue
            hit = next((n for e in flow.events for n in callees(e, flows)[0] if n in out), None)
            if hit is not None:
                out[name] = f"calls {hit}(): {out[hit]}"
                changed = True
    return out


def racy_region_reason(
    region: FoundRegion, events: list[Event], flows: dict[str, FunctionFlow], racy: dict
) -> str:
    """Why every loop of ``region`` stays as written when its body calls a function whose
    chain races (``racy_callers``); '' when it calls none."""
    hit = next((n for e in events for n in callees(e, flows)[0] if n in racy), "")
    if not hit:
        return ""
    d = region.directive
    return f"the parallel region at {d.file}:{d.line} calls {hit}(): {racy[hit]}"

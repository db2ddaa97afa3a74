"""The legality gate for a parallel region: ``nowait`` chains and the thread count.

Two facts of OpenMP decide what a region allows (its body read as events,
``region_events``):

- After a loop with ``nowait``, threads run on without waiting. A later loop
  (before the next barrier) that reads what the first wrote is correct only
  because both loops map the same iterations to the same threads, which
  OpenMP guarantees only for static schedules with the same trip count and
  chunk in one region. Every loop of such a chain keeps its schedule.
- Code that is not a loop has no such mapping. A ``master`` or ``single``
  reading what a ``nowait`` loop wrote sees the iterations its own thread has
  run (DataRaceBench DRB013); a ``master`` (or ``single nowait``) starts a
  chain as a ``nowait`` loop does, so a loop after it that sums into what it
  resets races with it (DRB140). Such a race follows the threads' timing,
  which any variant of any loop of the region moves: every loop of the
  region is kept as written. So is a chain whose loops meet at different
  iterations, or whose trip counts may differ (``proof.chainrace``): the same
  mapping keeps only the same iteration on one thread.
- ``num_threads`` belongs to the region, not to one loop. When the region
  holds several loops, or runs code of its own on every thread (a print, a
  shared update, a thread-id call), its thread count is not varied per loop.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from pycparser import c_ast

from autotune.analysis.astutil import walk
from autotune.analysis.names import names_in
from autotune.analysis.proof.facts import clause_names
from autotune.analysis.region_code import cancels_region
from autotune.analysis.region_events import (
    Event,
    RegionEvents,
    node_line,
    unwrap,
)
from autotune.analysis.symbols import Scope
from autotune.frontend.finder import FoundLoop, FoundRegion


@dataclass
class RegionFacts:
    """What the gate decided for the loops of one parallel region (keyed by id(for_node))."""

    schedule_kept: dict[int, str] = field(default_factory=dict)
    threads_kept: dict[int, str] = field(default_factory=dict)
    # loops whose region's thread count may change as a whole (tuned per region)
    region_free: set[int] = field(default_factory=set)
    members: set[int] = field(default_factory=set)  # every loop of the region
    events: list[Event] = field(default_factory=list)  # its body, read in order


def _loop_reads(e: Event) -> set[str]:
    """Every name the loop mentions, privates included (a thread number is private)."""
    return names_in(e.for_node).names if e.for_node is not None else set()


def _thread_reads(e: Event, walker: RegionEvents, scope: Scope) -> list[str]:
    """The names ``e``'s loop reads that hold a thread number or count where it reads
    them. A name is matched to the declaration it reaches (C99 code reuses ``int i`` from
    loop to loop); one the lookup cannot place (no declaration, or one that comes later
    in its block than the use) is matched by name alone. The loop's own variable and its
    private copies hold what each iteration gives them."""
    names = (_loop_reads(e) & walker.thread_ids) - e.fresh
    if not names:
        return []
    tainted = set()
    for name, site in walker.thread_sites:
        if name in names:
            decl = site if isinstance(site, c_ast.Decl) else _reached(scope, name, site)
            tainted.add((name, None if decl is None else id(decl)))
    used = set()
    for n in walk(e.for_node):
        if isinstance(n, c_ast.ID) and n.name in names:
            decl = _reached(scope, n.name, n)
            if decl is None or (n.name, None) in tainted or (n.name, id(decl)) in tainted:
                used.add(n.name)
    return sorted(used)


def _reached(scope: Scope, name: str, at: c_ast.Node) -> c_ast.Decl | None:
    """The declaration ``name`` at ``at`` refers to, or None where the lookup may be
    wrong: it ignores where in a block a declaration stands, so one after the use (which
    the use cannot see) is no answer."""
    decl, _ = scope.find_decl(name, at)
    if decl is None or decl.coord is None or at.coord is None:
        return None
    where = (decl.coord.line, decl.coord.column or 0)
    if decl.coord.file == at.coord.file and where > (at.coord.line, at.coord.column or 0):
        return None
    return decl


def region_facts(
    region: FoundRegion,
    loops: list[FoundLoop],
    scope: Scope,
    touch: LoopsTouch | None = None,
    objects: NameObjects | None = None,
    funcs: dict | None = None,
    races: LoopsTouch | None = None,
    slot_indices: Callable[[c_ast.Node], set[str]] | None = None,
) -> RegionFacts:
    """Apply the chain and thread-count rules to the loops of one ``parallel`` region.
    ``races``: whether two loops of a chain may race as written (None: never asked);
    ``slot_indices``: the thread numbers a loop reads only to index its rows of
    per-thread partials (``proof/threadslots.py``), which the proof judged."""
    facts = RegionFacts()
    d = region.directive
    c = d.clauses
    private = clause_names(c.private + c.firstprivate)
    walker = RegionEvents(private, funcs)
    walker.root, walker.scope = region.node, scope
    walker._statement(region.node)
    events = walker.events
    mine = {id(f.for_node): f for f in loops if f.parallel is d and f.for_node is not None}
    facts.members = set(mine)
    facts.events = events
    where = f"{d.file}:{d.line}"
    if id(unwrap(region.node)) in mine:  # "parallel" and "for" stacked on one loop
        return facts
    cancel = cancels_region(region.node)
    if cancel is not None:
        why = (
            f"'#pragma {cancel.text}' at line {cancel.line} may end the parallel region at "
            f"{where} early: which iterations still run depends on the schedule and the team"
        )
        for key in mine:
            facts.schedule_kept[key] = why
            facts.threads_kept[key] = why
        return facts
    kinds = Aliasing(scope, region.node, objects)
    # chains of code alone (a master waiting on what a single sets) are _once_waits' part
    chains = [g for g in nowait_chains(events, kinds, touch) if any(e.kind == "loop" for e in g)]
    racy = racy_chain(chains, races)
    if racy is not None:
        _keep_racy_region(facts, mine, racy[0], where, racy[1])
        return facts
    chained = bool(chains)  # a chain may rely on its loops' equal trip counts: keep it all
    for group in chains:
        text = ", ".join(str(x) for x in sorted({e.line for e in group}))
        for e in group:
            facts.schedule_kept[id(e.for_node)] = (
                f"in a nowait chain with lines {text} of the parallel region at {where}: "
                "the loops rely on the same static iteration-to-thread mapping"
            )
    for e in events:
        used = _thread_reads(e, walker, scope) if e.kind == "loop" else []
        if used and slot_indices is not None:
            used = [u for u in used if u not in slot_indices(e.for_node)]
        if used:
            why = (
                f"reads {used[0]}, which holds the thread's number or count (set in the "
                f"parallel region at {where}): which thread runs an iteration matters"
            )
            facts.schedule_kept.setdefault(id(e.for_node), why)
            facts.threads_kept.setdefault(id(e.for_node), why)
    loop_lines = sorted({e.line for e in events if e.kind == "loop"})
    _once_waits(events)
    code = next((e for e in events if e.kind in ("code", "once") and e.why), None)
    for key, found in mine.items():
        if code is not None:
            facts.threads_kept[key] = (
                f"the parallel region at {where} {code.why}: its effect depends on the thread count"
            )
        elif len(loop_lines) > 1:
            others = ", ".join(str(x) for x in loop_lines if x != node_line(found.for_node))
            facts.threads_kept[key] = (
                f"the thread count belongs to the parallel region at "
                f"{where}, which also runs the loops at lines {others}: it is tuned for the "
                "region as a whole"
            )
            if not chained:
                facts.region_free.add(key)
    return facts


def _loops_race(group: list[Event], races: LoopsTouch) -> bool:
    """Two loops of the chain, the earlier first, that may race as written."""
    loops = [e for e in group if e.for_node is not None]
    return any(races(x.for_node, e.for_node) for i, x in enumerate(loops) for e in loops[i + 1 :])


def racy_chain(
    chains: list[list[Event]], races: LoopsTouch | None
) -> tuple[list[Event], str] | None:
    """A chain that races as written, and how: code one thread runs in it, or two loops
    meeting at different iterations (``races``; None: not asked)."""
    for group in chains:
        other = next((e for e in group if e.kind != "loop"), None)
        if other is not None and other.unseen:
            return group, (
                f"line {other.line} reaches a call of {other.unseen}(), which none of the "
                "program's files defines (give its file with --extra-source), so it may touch "
                "that data and run code a thread runs on its own"
            )
        if other is not None:
            return group, f"line {other.line} is code a thread runs on its own"
    for group in chains:
        if races is not None and _loops_race(group, races):
            return group, (
                "one loop touches an element another iteration of the other writes, or their "
                "trip counts or static schedules may differ, which no iteration-to-thread "
                "mapping keeps on one thread"
            )
    return None


def _keep_racy_region(
    facts: RegionFacts, mine: dict, group: list[Event], where: str, how: str
) -> None:
    """A chain holding code that is not a loop (a ``master`` resetting what the loop after
    it sums, a ``single`` reading what a ``nowait`` loop before it wrote), or loops that
    meet at different iterations (a plane loop reading its neighbours' row of the plane
    before), is a race: no iteration-to-thread mapping orders it, so what it computes
    follows the threads' timing, which any change in how the region's threads run moves
    (a schedule variant of another loop of the region made one such race print another
    result). Every loop of the region is kept as written."""
    text = ", ".join(str(x) for x in sorted({e.line for e in group}))
    why = (
        f"lines {text} of the parallel region at {where} share data with no barrier between "
        f"them, and {how}: what one sees of the other's data depends on which thread runs "
        "which iterations, and when; any change in how the region's threads run may change it"
    )
    for key in mine:
        facts.schedule_kept[key] = why
        facts.threads_kept[key] = why


def _once_waits(events: list[Event]) -> None:
    """Code one thread runs that reads what code after it writes before any barrier (a
    master spinning on a flag a later single sets): it can see the value only while
    another thread runs the writer beside it, so with one thread it waits for ever. Its
    ``why`` says so."""
    for k, e in enumerate(events):
        if e.kind != "once" or e.why:
            continue
        for later in events[k + 1 :]:
            if later.kind == "barrier":
                break
            shared = sorted((e.reads - e.writes) & later.writes)  # read, not only set
            if shared:
                e.why = (
                    f"runs code one thread runs at line {e.line} that reads {shared[0]}, "
                    f"which line {later.line} writes after it before any barrier: with "
                    "fewer threads it may wait for ever"
                )
                break


class Aliasing:
    """May two names share storage? Arrays and scalars are their own; a pointer may be
    anything, unless ``objects`` (the points-to of the legality proof) says what it
    reaches."""

    def __init__(self, scope: Scope, at: c_ast.Node, objects: NameObjects | None = None) -> None:
        self.scope, self.at = scope, at
        self.objects = objects
        self._kind: dict[str, str] = {}

    def kind(self, name: str) -> str:
        if name not in self._kind:
            decl, where = self.scope.find_decl(name, self.at)
            t = decl.type if decl is not None else None
            if (
                t is None
                or isinstance(t, c_ast.PtrDecl)
                or (where == "param" and isinstance(t, c_ast.ArrayDecl))
            ):
                self._kind[name] = "pointer"
            else:
                self._kind[name] = "array" if isinstance(t, c_ast.ArrayDecl) else "scalar"
        return self._kind[name]

    def overlap(self, a: set[str], b: set[str]) -> bool:
        if a & b:
            return True
        if self.objects is not None:
            oa = [self.objects(n, self.at) for n in a]
            ob = [self.objects(n, self.at) for n in b]
            if all(o is not None for o in oa + ob):
                return bool(frozenset().union(*oa) & frozenset().union(*ob))
        ka = {self.kind(n) for n in a}
        kb = {self.kind(n) for n in b}
        return ("pointer" in ka and kb & {"pointer", "array"}) or (
            "pointer" in kb and ka & {"pointer", "array"}
        )


LoopsTouch = Callable[[c_ast.Node, c_ast.Node], bool]
NameObjects = Callable[[str, c_ast.Node], "frozenset[str] | None"]


def _elements_meet(chain: _Chain, e: Event, touch: LoopsTouch | None) -> bool:
    """Names overlap; when every event is a loop, ask whether any elements do (two
    loops writing different planes of one array do not chain)."""
    if touch is None or e.for_node is None or any(x.for_node is None for x in chain.events):
        return True
    if any(x.copied_out & (e.reads | e.writes) for x in chain.events) or (
        e.copied_out & (chain.reads | chain.writes)
    ):
        return True  # a reduction's or lastprivate's copy-out, which no iteration shows
    return any(touch(x.for_node, e.for_node) for x in chain.events)


@dataclass
class _Chain:
    events: list[Event]
    reads: set[str]
    writes: set[str]

    def take(self, e: Event) -> None:
        self.events.append(e)
        self.reads |= e.reads
        self.writes |= e.writes


def nowait_chains(
    events: list[Event], alias: Aliasing, touch: LoopsTouch | None = None
) -> list[list[Event]]:
    """Events that run between a ``nowait`` loop and the next barrier and touch its data.

    A later event joins a chain when it reads or writes what the chain wrote,
    or writes what it read (by name, pointers taken to alias any array); a
    chain is a real one when something joined it. Several chains may be open
    at once (independent nowait loops); an event touching two merges them.
    """
    out: list[list[Event]] = []
    open_: list[_Chain] = []
    for e in events:
        if e.kind == "barrier":
            out += [c.events for c in open_ if len(c.events) > 1]
            open_ = []
            continue
        hit = [
            c
            for c in open_
            if (alias.overlap(c.writes, e.reads | e.writes) or alias.overlap(c.reads, e.writes))
            and _elements_meet(c, e, touch)
        ]
        if hit:
            first = hit[0]
            for other in hit[1:]:
                for x in other.events:
                    first.take(x)
                open_.remove(other)
            first.take(e)
        elif e.nowait or e.kind == "code":
            # a nowait loop, a master, a call leaving one open; or code every thread runs
            # on its own, which no barrier separates from the loop after it either
            open_.append(_Chain([e], set(e.reads), set(e.writes)))
    out += [c.events for c in open_ if len(c.events) > 1]
    return out

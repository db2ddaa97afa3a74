"""The legality gate for a parallel region: ``nowait`` chains and the thread count.

Two facts of OpenMP decide what a region allows:

- After a loop with ``nowait``, threads run on without waiting. A later loop
  (before the next barrier) that reads what the first wrote is correct only
  because both loops map the same iterations to the same threads, which
  OpenMP guarantees only for static schedules with the same trip count and
  chunk in one region. Every loop of such a chain keeps its schedule. Code in
  the chain that is not a loop (a ``master`` or ``single`` reading what the
  loop wrote) has no such mapping: it sees the iterations its own thread has
  run, which the team size decides, so the chain's loops keep their thread
  count too (DataRaceBench DRB013). A ``master`` (or ``single nowait``) starts
  such a chain as a ``nowait`` loop does: a loop after it, before any barrier,
  that touches what it writes (a reduction's variable it resets, DRB140) races
  with it.
- ``num_threads`` belongs to the region, not to one loop. When the region
  holds several loops, or runs code of its own on every thread (a print, a
  shared update, a thread-id call), its thread count is not varied per loop.

The region's body is read as a sequence of events (loop, barrier, code run
by every thread, code run once); a sequential loop inside the region is read
twice so a chain that wraps around to its next iteration is seen.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from pycparser import c_ast

from autotune.analysis.astutil import walk
from autotune.analysis.names import assigned_names, names_in, written_root
from autotune.analysis.proof.facts import reduction_items
from autotune.analysis.region_code import (
    calls_thread_api,
    cancels_region,
    sections_handoff,
    team_query,
    thread_dependence,
    waits_for_another,
)
from autotune.analysis.symbols import Scope
from autotune.frontend.finder import WORKSHARING_LOOP_KINDS, FoundLoop, FoundRegion
from autotune.frontend.records import Directive
from autotune.frontend.runs import block_items, pragma_runs

ONCE_WITH_BARRIER = {"single", "sections", "workshare"}
ONCE_NO_BARRIER = {"master", "masked"}


@dataclass
class Event:
    kind: str  # "loop" | "barrier" | "code" | "once"
    line: int
    for_node: c_ast.Node | None = None
    nowait: bool = False
    why: str = ""  # for "code": what makes it depend on the thread count ('' if nothing)
    reads: set[str] = field(default_factory=set)  # shared names read (privates left out)
    writes: set[str] = field(default_factory=set)  # shared names written
    calls: set[str] = field(default_factory=set)  # functions it calls, by name


@dataclass
class RegionFacts:
    """What the gate decided for the loops of one parallel region (keyed by id(for_node))."""

    schedule_kept: dict[int, str] = field(default_factory=dict)
    threads_kept: dict[int, str] = field(default_factory=dict)
    # loops whose region's thread count may change as a whole (tuned per region)
    region_free: set[int] = field(default_factory=set)
    members: set[int] = field(default_factory=set)  # every loop of the region
    events: list[Event] = field(default_factory=list)  # its body, read in order


class RegionEvents(c_ast.NodeVisitor):
    """The events of one region body, in program order."""

    def __init__(self, private: set[str], funcs: dict | None = None) -> None:
        self.events: list[Event] = []
        self.private = set(private)
        self.funcs = funcs or {}  # the program's functions: name -> (FuncDef, FileAST)
        # names holding a thread number or count (int tid = omp_get_thread_num();): a loop
        # that reads one depends on which thread runs which iteration
        self.thread_ids: set[str] = set()

    def visit_Compound(self, node: c_ast.Compound) -> None:
        for run in pragma_runs(node.block_items):
            self._run(run.directives, run.stmt)

    def _run(self, directives: list[Directive], stmt: c_ast.Node | None) -> None:
        line = directives[0].line if directives else _line(stmt)
        if stmt is None:
            if directives and directives[0].kind == "barrier":
                self.events.append(Event("barrier", line))
            return
        if not directives:
            self._statement(stmt)
            return
        d = directives[0]
        if d.kind in WORKSHARING_LOOP_KINDS and not d.kind.startswith("parallel"):
            loop = _unwrap(stmt)
            c = d.clauses
            own = _clause_names(c.private + c.firstprivate + c.lastprivate) | {
                name for _, name in reduction_items(c.reduction)
            }
            if isinstance(loop, c_ast.For):
                own |= _loop_var(loop)
            self._add(Event("loop", _line(loop) or line, loop, c.nowait), stmt, own)
            # the shared copy a reduction combines into is written at the loop's end
            self.events[-1].writes |= {name for _, name in reduction_items(c.reduction)}
            if not c.nowait:
                self.events.append(Event("barrier", line))
        elif d.kind in ONCE_WITH_BARRIER or d.kind in ONCE_NO_BARRIER:
            query = team_query(stmt, self.funcs)
            wait = waits_for_another(stmt)
            if not wait and d.kind == "sections":
                wait = sections_handoff(stmt)
            why = f"runs '#pragma {d.text}' at line {line}, which {query}" if query else ""
            if wait and not why:
                why = (
                    f"runs '#pragma {d.text}' at line {line}, whose {wait} may hand data to "
                    "or wait for another thread: with fewer threads it may wait for ever"
                )
            alone = d.kind in ONCE_NO_BARRIER or bool(d.clauses.nowait)  # no barrier after
            self._add(Event("once", line, nowait=alone, why=why), stmt)
            if d.kind in ONCE_WITH_BARRIER and not d.clauses.nowait:
                self.events.append(Event("barrier", line))
        else:  # critical, atomic, task, a nested parallel ... : run by every thread
            why = f"runs '#pragma {d.text}' at line {line} on every thread"
            self._add(Event("code", line, why=why), stmt)
            if d.kind.startswith("parallel"):  # a team of its own, ended by its barrier
                self.events[-1].calls = set()

    def _add(self, event: Event, node: c_ast.Node, own: set[str] = frozenset()) -> None:
        """Append ``event`` with the shared names ``node`` reads and writes."""
        local = _declared(node) | own | self.private
        reads = names_in(node)
        event.reads = reads.names - local
        event.writes = assigned_names(node) - local
        event.calls = set(reads.calls)
        self.events.append(event)

    def _statement(self, stmt: c_ast.Node) -> None:
        if isinstance(stmt, c_ast.Compound):
            self.visit_Compound(stmt)
        elif isinstance(stmt, c_ast.For | c_ast.While | c_ast.DoWhile):
            self._sequential(stmt)
        elif isinstance(stmt, c_ast.If):
            self._code(stmt.cond, _line(stmt))
            for branch in (stmt.iftrue, stmt.iffalse):
                if branch is not None:
                    self._statement(branch)
        elif isinstance(stmt, c_ast.Decl):
            self.private.add(stmt.name)
            if stmt.init is not None and calls_thread_api(stmt.init, self.thread_ids):
                self.thread_ids.add(stmt.name)
            self._code(stmt.init, _line(stmt))
        else:
            self._code(stmt, _line(stmt))

    def _sequential(self, loop: c_ast.Node) -> None:
        """A loop every thread runs: its header is code, its body is read twice."""
        if isinstance(loop, c_ast.For):
            if isinstance(loop.init, c_ast.DeclList):
                self.private.update(d.name for d in loop.init.decls)
            for part in (loop.init, loop.cond, loop.next):
                self._code(part, _line(loop))
        else:
            self._code(loop.cond, _line(loop))
        for _ in range(2):
            self._statement(loop.stmt)

    def _code(self, node: c_ast.Node | None, line: int) -> None:
        if node is None:
            return
        for n in walk(node):
            if isinstance(n, c_ast.Assignment) and calls_thread_api(n.rvalue, self.thread_ids):
                name = written_root(n.lvalue)
                if name:
                    self.thread_ids.add(name)
        self._add(Event("code", line, why=thread_dependence(node, self.private, line)), node)


def _clause_names(items: list[str]) -> set[str]:
    return {n.strip() for item in items for n in item.split(",") if n.strip()}


def _loop_var(loop: c_ast.For) -> set[str]:
    init = loop.init
    if isinstance(init, c_ast.DeclList):
        return {d.name for d in init.decls}
    if isinstance(init, c_ast.Assignment) and isinstance(init.lvalue, c_ast.ID):
        return {init.lvalue.name}
    return set()


def _declared(node: c_ast.Node) -> set[str]:
    return {n.name for n in walk(node) if isinstance(n, c_ast.Decl) and n.name}


def _loop_reads(e: Event) -> set[str]:
    """Every name the loop mentions, privates included (a thread number is private)."""
    return names_in(e.for_node).names if e.for_node is not None else set()


def _line(node: c_ast.Node | None) -> int:
    return int(node.coord.line) if node is not None and node.coord else 0


def _unwrap(stmt: c_ast.Node) -> c_ast.Node:
    while isinstance(stmt, c_ast.Compound) and len(block_items(stmt)) == 1:
        stmt = block_items(stmt)[0]
    return stmt


def region_facts(
    region: FoundRegion,
    loops: list[FoundLoop],
    scope: Scope,
    touch: LoopsTouch | None = None,
    objects: NameObjects | None = None,
    funcs: dict | None = None,
) -> RegionFacts:
    """Apply the chain and thread-count rules to the loops of one ``parallel`` region."""
    facts = RegionFacts()
    d = region.directive
    c = d.clauses
    private = _clause_names(c.private + c.firstprivate)
    walker = RegionEvents(private, funcs)
    walker._statement(region.node)
    events = walker.events
    mine = {id(f.for_node): f for f in loops if f.parallel is d and f.for_node is not None}
    facts.members = set(mine)
    facts.events = events
    where = f"{d.file}:{d.line}"
    if id(_unwrap(region.node)) in mine:  # "parallel" and "for" stacked on one loop
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
    chains = [g for g in _chains(events, kinds, touch) if any(e.kind == "loop" for e in g)]
    racy = next((g for g in chains if any(e.kind != "loop" for e in g)), None)
    if racy is not None:
        _keep_racy_region(facts, mine, racy, where)
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
        used = sorted(_loop_reads(e) & walker.thread_ids) if e.kind == "loop" else []
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
            others = ", ".join(str(x) for x in loop_lines if x != _line(found.for_node))
            facts.threads_kept[key] = (
                f"the thread count belongs to the parallel region at "
                f"{where}, which also runs the loops at lines {others}: it is tuned for the "
                "region as a whole"
            )
            if not chained:
                facts.region_free.add(key)
    return facts


def _keep_racy_region(facts: RegionFacts, mine: dict, group: list[Event], where: str) -> None:
    """A chain holding code that is not a loop (a ``master`` resetting what the loop after
    it sums, a ``single`` reading what a ``nowait`` loop before it wrote) is a race: no
    iteration-to-thread mapping orders it, so what it computes follows the threads'
    timing, which any change in how the region's threads run moves (a schedule variant of
    another loop of the region made one such race print another result). Every loop of
    the region is kept as written."""
    text = ", ".join(str(x) for x in sorted({e.line for e in group}))
    other = next(e for e in group if e.kind != "loop")
    why = (
        f"lines {text} of the parallel region at {where} share data with no barrier between "
        f"them, and line {other.line} is code a thread runs on its own: what it sees of the "
        "loop's data, or the loop of its, depends on which thread runs which iterations, "
        "and when; any change in how the region's threads run may change it"
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


def orphan_chains(
    func: c_ast.FuncDef,
    scope: Scope,
    touch: LoopsTouch | None = None,
    objects: NameObjects | None = None,
) -> dict[int, str] | None:
    """The nowait chains of a function holding orphaned ``omp for`` loops, read as a
    region of its own: what each chained loop's schedule must stay for (keyed by
    id(for_node)). None when the function does not end at a barrier: then what runs
    after it in the caller's region, and may lean on the same mapping, is not seen."""
    walker = RegionEvents(set())
    walker._statement(func.body)
    events = walker.events
    loops = [e for e in events if e.kind == "loop"]
    if not loops:
        return {}
    last = max(i for i, e in enumerate(events) if e.kind == "loop")
    if not any(e.kind == "barrier" for e in events[last:]):
        return None
    out: dict[int, str] = {}
    for group in _chains(events, Aliasing(scope, func.body, objects), touch):
        text = ", ".join(str(x) for x in sorted({e.line for e in group}))
        for e in group:
            if e.kind == "loop":
                out[id(e.for_node)] = (
                    f"in a nowait chain with lines {text} of {func.decl.name}(): the loops "
                    "rely on the same static iteration-to-thread mapping"
                )
    return out


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


def _chains(
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
        elif e.kind in ("loop", "once") and e.nowait:
            open_.append(_Chain([e], set(e.reads), set(e.writes)))
    out += [c.events for c in open_ if len(c.events) > 1]
    return out

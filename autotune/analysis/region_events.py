"""A parallel region's body read as events, in program order: worksharing loops,
barriers, code one thread runs (``single``, ``master``) and code every thread runs.

``region_rules`` decides from them what a region allows; ``orphan_flow`` reads the
functions holding orphaned loops the same way. Each event carries the shared names it
reads and writes (the region's privates left out), so the rules can ask which events
touch each other's data before a barrier.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from pycparser import c_ast

from autotune.analysis.astutil import team_shared, walk
from autotune.analysis.call_effects import CallEffects
from autotune.analysis.names import assigned_names, names_in, written_root
from autotune.analysis.partials import combines_identity_partial
from autotune.analysis.proof.facts import clause_names, reduction_items
from autotune.analysis.region_code import (
    ONCE_NO_BARRIER,
    ONCE_WITH_BARRIER,
    calls_thread_api,
    error_exit,
    sections_handoff,
    stores_thread_value,
    team_query,
    thread_dependence,
    waits_for_another,
)
from autotune.analysis.tripcount import constant_trips, constant_value
from autotune.frontend.finder import WORKSHARING_LOOP_KINDS
from autotune.frontend.records import Directive
from autotune.frontend.runs import block_items, pragma_runs


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
    # shared names a loop writes once, at its end (reduction, lastprivate): no element
    # of its iterations' shows them
    copied_out: set[str] = field(default_factory=set)
    # code that may leave what encloses it: "break" or "continue" (the sequential loop
    # being read), "return" or "goto" (the function); '' if none
    jump: str = ""
    unseen: str = ""  # a function it calls that none of the program's files defines
    # for a loop: the names each iteration sees fresh (its own variable, its private,
    # lastprivate and reduction copies), whatever the region set them to before it
    fresh: set[str] = field(default_factory=set)


class RegionEvents(c_ast.NodeVisitor):
    """The events of one region body, in program order."""

    def __init__(self, private: set[str], funcs: dict | None = None) -> None:
        self.events: list[Event] = []
        self.private = set(private)
        self.funcs = funcs or {}  # the program's functions: name -> (FuncDef, FileAST)
        self.effects = CallEffects(self.funcs)
        # names holding a thread number or count (int tid = omp_get_thread_num();): a loop
        # that reads one depends on which thread runs which iteration. ``thread_sites``
        # keeps where each was set (its declaration, or the assigned ID), so that a loop's
        # ``i`` is not taken for another loop's ``int i`` of the same name
        self.thread_ids: set[str] = set()
        self.thread_sites: list[tuple[str, c_ast.Node]] = []
        # the region read (None: an orphaned function's body), its scope, and the
        # declarations met in it, for the partials its critical sections add up
        self.root: c_ast.Node | None = None
        self.scope = None  # symbols.Scope
        self.decls: dict[str, c_ast.Decl] = {}
        # under a test or loop header that reads a thread number or count: a branch that
        # ends the program there ends it only for some teams
        self.tied = False

    def visit_Compound(self, node: c_ast.Compound) -> None:
        for run in pragma_runs(node.block_items):
            self._run(run.directives, run.stmt)

    def _run(self, directives: list[Directive], stmt: c_ast.Node | None) -> None:
        line = directives[0].line if directives else node_line(stmt)
        if stmt is None:
            if directives and directives[0].kind == "barrier":
                self._barrier(line)
            return
        if not directives:
            self._statement(stmt)
            return
        d = directives[0]
        if d.kind in WORKSHARING_LOOP_KINDS and not d.kind.startswith("parallel"):
            loop = unwrap(stmt)
            c = d.clauses
            own = set(clause_names(c.private + c.firstprivate + c.lastprivate)) | {
                name for _, name in reduction_items(c.reduction)
            }
            fresh = set(clause_names(c.private + c.lastprivate)) | {
                name for _, name in reduction_items(c.reduction)
            }
            if isinstance(loop, c_ast.For):
                own |= _loop_var(loop)
                fresh |= _loop_var(loop)
            event = Event("loop", node_line(loop) or line, loop, c.nowait, fresh=fresh)
            self._add(event, stmt, own)
            # the shared copy a reduction combines into, or the last iteration's thread
            # copies a lastprivate out to, is written at the loop's end
            ends = {name for _, name in reduction_items(c.reduction)}
            ends |= set(clause_names(c.lastprivate + c.lastprivate_conditional))
            ends |= {n for n in _linear_names(c.linear) if n.isidentifier()}
            self.events[-1].writes |= ends
            self.events[-1].copied_out = ends
            if not c.nowait:
                self._barrier(line)
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
                self._barrier(line)
        else:  # critical, atomic, task, a nested parallel ... : run by every thread
            why = f"runs '#pragma {d.text}' at line {line} on every thread"
            if d.kind in ("critical", "atomic") and combines_identity_partial(
                stmt, self.decls, self.root, self.scope
            ):
                why = ""  # each thread's integer share added in: the same for any team
            self._add(Event("code", line, why=why), stmt)
            if d.kind.startswith("parallel"):  # a team of its own, ended by its barrier
                self.events[-1].calls = set()

    def _barrier(self, line: int) -> None:
        self.events.append(Event("barrier", line))

    def _open_tail(self) -> list[Event]:
        """The events since the last barrier: what is still running, or running on."""
        last = max((i for i, e in enumerate(self.events) if e.kind == "barrier"), default=-1)
        return self.events[last + 1 :]

    def _may_skip(self, tail: list[Event], mark: int) -> None:
        """A barrier from ``mark`` on is passed on some paths only (a branch, a loop that
        may run no iteration): on the others, what ran before it runs on into what
        follows, so its events come again after it."""
        if any(e.kind == "barrier" for e in self.events[mark:]):
            self.events.extend(replace(e) for e in tail)

    def _add(self, event: Event, node: c_ast.Node, own: set[str] = frozenset()) -> None:
        """Append ``event`` with the shared names ``node`` reads and writes."""
        local = _declared(node) | own | self.private
        reads = names_in(node)
        event.reads = reads.names - local
        event.writes = assigned_names(node) - local
        # what its calls touch: handed-on pointers (the caller's names), and the callees'
        # file-scope variables, which no private of the region hides
        touch = self.effects.of_node(node)
        event.reads |= touch.reads
        event.writes |= touch.writes | (touch.handed - local)
        if touch.open_once and event.kind == "code":  # a called master: the team runs on
            event.nowait = True
        event.unseen = touch.unseen
        event.calls = set(reads.calls)
        self.events.append(event)

    def _statement(self, stmt: c_ast.Node) -> None:
        if isinstance(stmt, c_ast.Compound):
            self.visit_Compound(stmt)
        elif isinstance(stmt, c_ast.For | c_ast.While | c_ast.DoWhile):
            self._sequential(stmt)
        elif isinstance(stmt, c_ast.If):
            self._code(stmt.cond, node_line(stmt))
            tail, mark = self._open_tail(), len(self.events)
            tied, self.tied = self.tied, self.tied or calls_thread_api(stmt.cond, self.thread_ids)
            for branch in (stmt.iftrue, stmt.iffalse):
                if branch is not None and not (error_exit(branch) and not self.tied):
                    self._statement(branch)
            self.tied = tied
            self._may_skip(tail, mark)
        elif isinstance(stmt, c_ast.Decl):
            self.decls[stmt.name] = stmt
            if not team_shared(stmt):
                self.private.add(stmt.name)
            if stmt.init is not None and calls_thread_api(stmt.init, self.thread_ids):
                self._taint(stmt.name, stmt)
            self._code(stmt.init, node_line(stmt))
        else:
            self._code(stmt, node_line(stmt))

    def _sequential(self, loop: c_ast.Node) -> None:
        """A loop every thread runs: its header is code, its body is read twice."""
        header = [p for p in (getattr(loop, "init", None), loop.cond, getattr(loop, "next", None))]
        tied, self.tied = (
            self.tied,
            self.tied
            or any(p is not None and calls_thread_api(p, self.thread_ids) for p in header),
        )
        self._sequential_body(loop)
        self.tied = tied

    def _sequential_body(self, loop: c_ast.Node) -> None:
        if isinstance(loop, c_ast.For):
            if isinstance(loop.init, c_ast.DeclList):
                self.private.update(d.name for d in loop.init.decls)
            for part in (loop.init, loop.cond, loop.next):
                self._code(part, node_line(loop))
        else:
            self._code(loop.cond, node_line(loop))
        tail, mark = self._open_tail(), len(self.events)
        self._statement(loop.stmt)
        if any(e.jump == "continue" for e in self.events[mark:]):
            self._path_to(loop.stmt, ("continue",))  # a continue skips what follows it
        self._statement(loop.stmt)
        # the pass that leaves: what ran before the jump meets what follows the loop
        self._path_to(loop.stmt, ("break", "return", "goto"))
        for e in self.events[mark:]:
            if e.jump in ("break", "continue"):
                e.jump = ""  # this loop's own: an enclosing loop goes on after it
        if not _runs_at_least_once(loop):
            self._may_skip(tail, mark)

    def _path_to(self, body: c_ast.Node, kinds: tuple[str, ...]) -> None:
        """The events of one more pass of ``body`` up to its first jump of ``kinds`` (none
        when it has none): a barrier after the jump is not reached on that path."""
        mark = len(self.events)
        self._statement(body)
        k = next((i for i, e in enumerate(self.events[mark:]) if e.jump in kinds), None)
        del self.events[mark if k is None else mark + k + 1 :]

    def _taint(self, name: str, site: c_ast.Node) -> None:
        self.thread_ids.add(name)
        self.thread_sites.append((name, site))

    def _code(self, node: c_ast.Node | None, line: int) -> None:
        if node is None:
            return
        for n in walk(node):
            if isinstance(n, c_ast.Assignment):
                name = written_root(n.lvalue)
                if name and stores_thread_value(n, self.thread_ids, self.private):
                    self._taint(name, n.lvalue)
            elif isinstance(n, c_ast.Decl) and n.name and n.init is not None:
                if calls_thread_api(n.init, self.thread_ids):  # for (int k = tid; ...)
                    self._taint(n.name, n)
        event = Event("code", line, why=thread_dependence(node, self.private, line))
        event.jump = _jump(node)
        self._add(event, node)


def _runs_at_least_once(loop: c_ast.Node) -> bool:
    """A sequential loop whose body surely runs: a ``do``, a ``while`` on a nonzero
    constant, a ``for`` of literal bounds with at least one trip."""
    if isinstance(loop, c_ast.DoWhile):
        return True
    if isinstance(loop, c_ast.While):
        return bool(constant_value(loop.cond))
    return isinstance(loop, c_ast.For) and (constant_trips(loop) or 0) > 0


def _jump(node: c_ast.Node) -> str:
    """How ``node`` may leave the statements around it (``_sequential``'s loop, the
    function): a break outside a loop or switch of its own, a continue outside a loop of
    its own, a return or a goto anywhere."""
    found = ""
    stack: list[tuple[c_ast.Node, bool, bool]] = [(node, False, False)]
    while stack:
        n, in_loop, in_switch = stack.pop()
        if isinstance(n, c_ast.Return | c_ast.Goto):
            return "return" if isinstance(n, c_ast.Return) else "goto"
        if isinstance(n, c_ast.Break) and not (in_loop or in_switch):
            found = "break"
        elif isinstance(n, c_ast.Continue) and not in_loop and not found:
            found = "continue"
        loop = in_loop or isinstance(n, c_ast.For | c_ast.While | c_ast.DoWhile)
        switch = in_switch or isinstance(n, c_ast.Switch)
        stack.extend((child, loop, switch) for _, child in n.children())
    return found


def _linear_names(items: list[str]) -> set[str]:
    """The variables of ``linear`` items (``j``, ``j, k: 2``, ``val(j)``)."""
    out = set()
    for item in items:
        names = item.partition(":")[0]
        for n in names.replace("(", ",").replace(")", ",").split(","):
            if n.strip() not in ("", "val", "ref", "uval"):
                out.add(n.strip())
    return out


def _loop_var(loop: c_ast.For) -> set[str]:
    init = loop.init
    if isinstance(init, c_ast.DeclList):
        return {d.name for d in init.decls}
    if isinstance(init, c_ast.Assignment) and isinstance(init.lvalue, c_ast.ID):
        return {init.lvalue.name}
    return set()


def _declared(node: c_ast.Node) -> set[str]:
    return {n.name for n in walk(node) if isinstance(n, c_ast.Decl) and n.name}


def node_line(node: c_ast.Node | None) -> int:
    return int(node.coord.line) if node is not None and node.coord else 0


def unwrap(stmt: c_ast.Node) -> c_ast.Node:
    while isinstance(stmt, c_ast.Compound) and len(block_items(stmt)) == 1:
        stmt = block_items(stmt)[0]
    return stmt

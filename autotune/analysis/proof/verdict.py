"""The proof for one worksharing loop: the reasons its mapping must stay as written.

A schedule, chunk or thread count changes which thread runs which iteration
and in what order. The result cannot change when (1) no iteration reads or
writes what another writes, except through commutative updates made
atomically or through reduction clauses; (2) every value a thread carries from
one iteration to the next (a private scalar or array, threadprivate data) is
set before it is read, or only accumulated and then combined; (3) nothing in
the iteration sees the thread, the team, the runtime's settings or the order
of I/O. Each rule that cannot be proven becomes one reason, and the loop is
kept as written.
"""

from __future__ import annotations

from pycparser import c_ast

from autotune.analysis.astutil import loop_var_name, walk
from autotune.analysis.proof import budget, chainrace, coverage, deps
from autotune.analysis.proof.carried import (
    judge_private_arrays,
    judge_private_scalars_after,
    judge_scalars,
    observed_leftovers,
)
from autotune.analysis.proof.contexts import calling_contexts
from autotune.analysis.proof.enclosing import enclosing_fors
from autotune.analysis.proof.facts import (
    IterationFacts,
    LoopSite,
    Proof,
    Ref,
)
from autotune.analysis.proof.iteration import walk_iteration
from autotune.analysis.proof.lifetimes import judge_own_objects, judge_stale_locals
from autotune.analysis.proof.loopcontext import loop_context
from autotune.analysis.proof.opaque import unknown_origins
from autotune.analysis.proof.pointsto import PointsTo
from autotune.analysis.proof.program import Program
from autotune.analysis.proof.sizes_read import judge_sizes_read
from autotune.analysis.proof.syntax import param_symbol, where
from autotune.analysis.proof.threadslots import (
    Slots,
    covered_thread_calls,
    slot_indices,
    thread_slots,
    without_slots,
)
from autotune.analysis.proof.threadstate import flag_test
from autotune.analysis.proof.walkstate import LoopContext


class Prover:
    """The proof for every loop of a file, sharing what one loop's proof needs of
    another's (a later loop that rewrites a thread's array before reading it)."""

    def __init__(self, prog: Program, pointsto: PointsTo, sites: list[LoopSite]) -> None:
        self.prog = prog
        self.pointsto = pointsto
        self.sites = sites
        self._inside: dict[int, LoopSite] = {}
        for s in sites:
            for n in walk(s.for_node):
                self._inside.setdefault(id(n), s)
        self._covered: dict[int, set[str]] = {}
        self._all_refs: dict[int, list[Ref] | None] = {}
        self._walked: dict[int, list[tuple[LoopContext, IterationFacts]] | None] = {}
        self._leftovers: dict[int, set[str]] = {}

    def prove(self, site: LoopSite) -> Proof:
        """Judge the walk of the loop in every calling context of its function, within
        the proof's time limit (``budget``): past it, the loop is kept as written."""
        try:
            with budget.limited():
                return self._prove(site)
        except budget.ProofTimeout:
            out = Proof()
            out.add(
                f"kept as written: the proof of the loop at {where(site.for_node)} would take "
                f"longer than {budget.limit_s():g} s (AUTOTUNE_PROOF_LIMIT_S)"
            )
            return out

    def _prove(self, site: LoopSite) -> Proof:
        out = Proof()
        walks = self._walks(site)
        if walks is None:
            out.add("kept as written: the loop body is nested too deeply for the proof")
        for ctx, facts in walks or []:
            self._judge(site, ctx, facts, out)
            out.sizes |= facts.params
            self._reads_leftovers(site, facts, out)
        _non_rectangular(site, out)
        return out

    def runs_twice(self, site: LoopSite) -> bool:
        """Under the current assumptions (``conditions``), the distributed loop may run
        two different iterations in some calling context."""
        for ctx, facts in self._walks(site) or []:
            domains = [r.domain for r in facts.refs if len(r.domain) >= ctx.collapse]
            if domains and deps.two_iterations(domains[0], ctx.collapse):
                return True
            if not domains:
                return True  # no reference to read the loops from: not ruled out
        return False

    def _reads_leftovers(self, site: LoopSite, facts: IterationFacts, out: Proof) -> None:
        """A read of what another loop of the function left in each thread's own copy
        (``mine++`` counted per thread, then ``a[i] = b[i] + mine``): which thread runs
        an iteration decides the value it reads."""
        for name, line in facts.invariant_reads.items():
            for other in self.sites:
                if other is site or other.func is not site.func:
                    continue
                if name in self._left_by(other):
                    out.add(
                        f"reads {name} at line {line}, which holds what each thread's own "
                        f"iterations of the loop at line {_line(other.for_node)} left in its "
                        "copy: it differs between threads"
                    )
                    break

    def _left_by(self, site: LoopSite) -> set[str]:
        key = id(site.for_node)
        if key not in self._leftovers:
            self._leftovers[key] = set().union(
                *(
                    observed_leftovers(self.rewrites_before_reading, site, ctx, facts)
                    for ctx, facts in self._walks(site) or []
                )
            )
        return self._leftovers[key]

    def walks(self, site: LoopSite) -> list[tuple[LoopContext, IterationFacts]] | None:
        """The loop's walk in each calling context (None: nested too deeply)."""
        return self._walks(site)

    def _walks(self, site: LoopSite) -> list[tuple[LoopContext, IterationFacts]] | None:
        """One walk per calling context, made once (the loop's own proof, a chain's
        comparison and a later loop's coverage all read it)."""
        key = id(site.for_node)
        if key not in self._walked:
            base = loop_context(site, self.prog, self.pointsto)
            walks: list[tuple[LoopContext, IterationFacts]] | None = []
            for bindings in calling_contexts(site, self.prog, self.pointsto):
                ctx = LoopContext(**{**base.__dict__, "param_ptrs": bindings})
                try:
                    walks.append((ctx, walk_iteration(ctx)))
                except RecursionError:
                    walks = None
                    break
            self._walked[key] = walks
        return self._walked[key]

    def rewrites_before_reading(self, node: c_ast.Node, name: str) -> bool:
        """``node`` is inside a worksharing loop whose every read of ``name`` is
        preceded in its iteration by a write of the same element."""
        site = self._inside.get(id(node))
        if site is None:
            return False
        if id(site.for_node) not in self._covered:
            self._covered[id(site.for_node)] = self._covering(site)
        return name in self._covered[id(site.for_node)]

    def _covering(self, site: LoopSite) -> set[str]:
        out: set[str] | None = None
        for _ctx, facts in self._walks(site) or []:
            names = set()
            by_obj: dict[str, list[Ref]] = {}
            for r in facts.refs:
                if r.owner == "private" and r.objects and len(r.objects) == 1:
                    by_obj.setdefault(next(iter(r.objects)), []).append(r)
            for obj, refs in by_obj.items():
                writes = [r for r in refs if r.kind == "w" and r.must]
                texts: dict = {}
                if all(coverage.covered(r, writes, texts) for r in refs if r.kind != "w"):
                    names.add(obj.split(":", 1)[1])
            # a thread's own scalar set on every path before any read (``t = b[i] * 2``)
            names |= {n for n in facts.plain if n not in facts.exposed and n not in facts.updates}
            out = names if out is None else out & names
        return out or set()

    def loops_touch(self, first: c_ast.Node, second: c_ast.Node) -> bool:
        """Whether two worksharing loops of one region may touch the same data (one of
        them writing), or the second reads a thread's data the first left behind."""
        both = self._both(first, second)
        if both is None:
            return True
        (_a, refs_a), (b, refs_b) = both
        private_a = {o for r in refs_a if r.owner == "private" for o in (r.objects or {"?"})}
        for r in refs_b:
            if r.owner == "private" and r.kind != "w" and (r.objects or {"?"}) & private_a:
                name = next(iter(r.objects or {"?:?"})).split(":", 1)[1]
                if not self.rewrites_before_reading(b.for_node, name):
                    return True
        return deps.loops_conflict(refs_a, refs_b)

    def chain_races(self, first: c_ast.Node, second: c_ast.Node) -> bool:
        """Whether two loops of one ``nowait`` chain may race as written: an element
        touched at two different iterations, or unequal trip counts (``chainrace``)."""
        both = self._both(first, second)
        if both is None:
            return True
        (a, refs_a), (b, refs_b) = both
        distributed = max(1, a.clauses.collapse or 1)
        if max(1, b.clauses.collapse or 1) != distributed:
            return True
        mapping = _static_chunk(a.clauses)
        if mapping is None or mapping != _static_chunk(b.clauses):
            return True  # the same mapping is promised for one static chunk size only
        repeated = None
        if b.region_node is not None:  # the loops a later repetition may come from
            fors = enclosing_fors(b.region_node, b.for_node)
            if isinstance(b.region_node, c_ast.For):  # ``parallel`` over a time loop
                fors = [b.region_node, *fors]
            repeated = {param_symbol(v) for f in fors if (v := loop_var_name(f))}
        return chainrace.chain_races(refs_a, refs_b, distributed, repeated)

    def slot_indices(self, node: c_ast.Node) -> set[str]:
        """Thread numbers the loop reads only to index rows of per-thread partials
        (``threadslots``), for the region rule on reads of a thread number."""
        site = self._site_of(node)
        return slot_indices(site, self.prog) if site is not None else set()

    def name_objects(self, func: c_ast.FuncDef, ast: c_ast.FileAST):
        """(name, where) -> the objects a variable of ``func`` is or points into (None:
        unknown): for the region rules' name-level view of data."""

        def objects(name: str, at: c_ast.Node) -> frozenset[str] | None:
            if name in self.prog.threadprivate:
                return None
            return self.pointsto.variable_objects(name, at, func, ast)

        return objects

    def _both(
        self, first: c_ast.Node, second: c_ast.Node
    ) -> tuple[tuple[LoopSite, list[Ref]], tuple[LoopSite, list[Ref]]] | None:
        """Two worksharing loops' sites and references (None: either is not seen)."""
        a, b = self._site_of(first), self._site_of(second)
        if a is None or b is None:
            return None
        refs_a, refs_b = self._refs(a), self._refs(b)
        if refs_a is None or refs_b is None:
            return None
        return (a, refs_a), (b, refs_b)

    def _site_of(self, node: c_ast.Node) -> LoopSite | None:
        return next((s for s in self.sites if s.for_node is node), None)

    def _refs(self, site: LoopSite) -> list[Ref] | None:
        """Every reference of the loop over all its calling contexts (None: effects the
        comparison cannot see, such as calls it cannot follow)."""
        key = id(site.for_node)
        if key not in self._all_refs:
            walks = self._walks(site)
            refs: list[Ref] | None = [] if walks is not None else None
            for _ctx, facts in walks or []:
                if any(e.startswith("kept as written") for e in facts.effects):
                    refs = None
                    break
                refs += facts.refs
            self._all_refs[key] = refs
        return self._all_refs[key]

    def _judge(self, site: LoopSite, ctx: LoopContext, facts: IterationFacts, out: Proof) -> None:
        _judge(self, site, ctx, facts, self.prog, out)


def _static_chunk(clauses) -> str | None:
    """The chunk text of a static schedule ('' for none; the default is libgomp's
    static), None for any other kind."""
    kind = (clauses.schedule or "static").split(":")[-1].strip()
    return "".join((clauses.chunk or "").split()) if kind == "static" else None


def _judge(
    prover: Prover,
    site: LoopSite,
    ctx: LoopContext,
    facts: IterationFacts,
    prog: Program,
    out: Proof,
) -> None:
    for e in facts.effects:
        out.add(e)
    slots = thread_slots(site, prog)
    for e in covered_thread_calls(slots, facts):
        out.add(e)
    if slots:  # rows of per-thread partials, summed over every row after the region
        facts = without_slots(facts, slots, site.for_node)
        _slot_notes(slots, out)
    tested = flag_test(prog)
    if tested:
        out.add(
            f"the program tests the floating-point exception flags ({tested}), which each "
            "thread raises in its own: whether the master sees one follows which thread ran "
            "the iteration that raised it"
        )
    judge_sizes_read(facts, out)
    judge_scalars(site, ctx, facts, prog, out)
    judge_stale_locals(facts, out)
    judge_own_objects(facts, out)
    shared = [r for r in facts.refs if r.owner == "shared"]
    found = deps.conflicts(shared, ctx.collapse)
    for c in found:
        out.add(c.reason())
        if c.why in ("overflow", "outside"):
            out.overflows.append(c.reason())
    hint = unknown_origins([r for c in found for r in (c.a, c.b)], prog)
    if hint:
        out.add(hint)
    judge_private_arrays(prover.rewrites_before_reading, site, ctx, facts, out)
    judge_private_scalars_after(prover.rewrites_before_reading, site, ctx, facts, out)
    for note in facts.reassociates:
        if note not in out.reassociates:
            out.reassociates.append(note)


def _slot_notes(slots: list[Slots], out: Proof) -> None:
    """What rows of per-thread partials leave: the thread count, and (for floating-point
    sums) a regrouping."""
    for s in slots:
        index = f"{s.array}[{s.tid}]"
        why = (
            f"{index} (line {s.line}) keeps one row of partial results per thread, as many "
            "rows as the program made for its team: another thread count could index past them"
        )
        if why not in out.threads_only:
            out.threads_only.append(why)
        if s.floating:
            note = (
                f"{index} holds per-thread partial sums added up after the region: another "
                "schedule regroups them, so results may differ in the last digits"
            )
            if note not in out.reassociates:
                out.reassociates.append(note)


def _non_rectangular(site: LoopSite, out: Proof) -> None:
    """gcc rejects any schedule clause on a collapsed nest whose inner bounds use outer
    collapsed variables: keep the schedule (the thread count may still vary)."""
    n = site.clauses.collapse
    if n <= 1:
        return
    node: c_ast.Node = site.for_node
    outer: list[str] = []
    for _ in range(n):
        while isinstance(node, c_ast.Compound) and node.block_items and len(node.block_items) == 1:
            node = node.block_items[0]
        if not isinstance(node, c_ast.For):
            return
        names = set()
        for part in (node.init, node.cond):
            for x in walk(part) if part is not None else []:
                if isinstance(x, c_ast.ID):
                    names.add(x.name)
        if outer and names & set(outer):
            out.schedule_only.append(
                f"collapse({n}) of a non-rectangular nest (the bounds at line {_line(node)} "
                "use an outer collapsed variable): the compiler rejects any schedule clause on it"
            )
            return
        var = loop_var_name(node)
        if var:
            outer.append(var)
        node = node.stmt


def _line(node: c_ast.Node) -> int:
    return node.coord.line if node.coord else 0

"""Entry point of the analysis: fill one ``LoopRecord`` from its pycparser nodes."""

from __future__ import annotations

import numpy as np
from pycparser import c_ast

from autotune.analysis import exprs
from autotune.analysis.arrays import plain_arrays
from autotune.analysis.astutil import walk
from autotune.analysis.body import Ctx, LoopNode, Walker
from autotune.analysis.count import chain_of, count, distributed_trip
from autotune.analysis.exprs import Expr, Symbolic
from autotune.analysis.footprint import COUNTED, footprint, per_thread
from autotune.analysis.ops import DEFAULT_WEIGHTS, WeightTable
from autotune.analysis.points import Points
from autotune.analysis.symbols import Scope
from autotune.analysis.tripcount import Header, NotCanonical, count_scalar, parse_header
from autotune.frontend.records import InnerSplit, LoopLevel, LoopRecord, OpCounts, UniformWork

WORK_CAP = 5_000_000  # longest work_per_iteration list we keep
RANK_THREADS = 3  # threads whose footprint is computed per variant when ranking
RANK_RUN_CAP = 512  # chunks per thread computed exactly when ranking; more extrapolated


# Over 60 lines: the analysis steps of one loop in order (walk, count, footprint, gate).
def analyze_loop(
    record: LoopRecord,
    for_node: c_ast.For,
    enclosing: list[c_ast.For],
    func: c_ast.FuncDef,
    file_ast: c_ast.FileAST,
    threads: int,
    weights: WeightTable | None = None,
    profiled: dict[str, int] | None = None,
    other_funcs: dict[str, tuple[c_ast.FuncDef, c_ast.FileAST]] | None = None,
) -> None:
    """Fill the analysis fields of ``record`` in place (see records.py).

    ``profiled``: values of C expressions measured at this loop's entry by a
    profile run (bounds sized at run time); they stand in for what the source
    cannot tell, and ``record.facts`` says so. ``other_funcs``: the functions of the
    program's other files, counted where the loop calls them.
    """
    weights = weights or DEFAULT_WEIGHTS
    record.threads = threads
    scope = Scope(func, file_ast)
    walker = Walker(for_node, profiled, other_funcs, file_ast)
    fixed, mids = _enclosing(record, enclosing, scope, walker)
    root, _ = walker.loop(for_node, Ctx(scope, {}, fixed))
    reasons: list[str] = []
    collapse = max(1, record.directive.clauses.collapse or 1)
    if root.header is None:
        reasons.append("the parallel loop is not in canonical form")
    chain = chain_of(root, collapse)
    if len(chain) < collapse:
        reasons.append(f"collapse({collapse}) but only {len(chain)} perfectly nested loops")
    trip, why = distributed_trip(root, collapse) if root.header is not None else (None, "")
    for node in chain:
        if node.header is not None:
            record.symbolic += [s for s in node.header.symbolic if s not in record.symbolic]
    if trip is None and root.header is not None and len(chain) >= collapse:
        reasons.append(f"trip count of the parallel loop is unknown ({why})")
    record.trip_count = trip
    record.trip_varies = any(node.reads_enclosing for node in chain)
    counts = count(root, collapse, trip is not None and trip <= WORK_CAP, trip)
    levels = _fill_nest(record, root, counts.executions)
    _fill_ops(record, root, levels[-1], counts, weights)
    record.inner_split = _inner_split(record, root, levels, counts.executions, weights)
    _fill_footprint(record, root, collapse, trip, threads)
    record.warnings += [w for w in walker.warnings + counts.warnings if w not in record.warnings]
    for name in sorted(walker.used_fixed):
        record.warnings.append(
            f"the nest uses the enclosing loop variable {name}: figures are "
            f"for one run at {name} = {mids.get(name, '?')} "
            f"(middle of its range)"
        )
    if walker.conditional_access:
        record.warnings.append(
            "accesses under if/?: are counted as always made (footprint upper bound)"
        )
    if walker.early_exit:
        places = ", ".join(dict.fromkeys(walker.early_exit))
        record.warnings.append(f"break/return/goto at {places}: trip counts are upper bounds")
    # thread queries and threadprivate data are the legality proof's to judge
    # (autotune.analysis.proof): they keep the mapping as written unless proven harmless
    record.nest_locals = sorted(
        {n.name for n in walk(for_node.stmt) if isinstance(n, c_ast.Decl) and n.name}
    )
    record.nest_written = sorted(_assigned_names(for_node.stmt))
    if walker.profiled.used:
        record.facts = "profile"
        record.profile["used"] = sorted(walker.profiled.used)
    elif trip is None:
        record.facts = "unknown"
    if reasons:
        record.tunable = False
        record.reason = "; ".join(r for r in [record.reason, *reasons] if r)


def _assigned_names(node: c_ast.Node) -> set[str]:
    """Variables the statement assigns by name (``x = ...``, ``x += ...``, ``x++``)."""
    out: set[str] = set()
    for n in walk(node):
        target = None
        if isinstance(n, c_ast.Assignment):
            target = n.lvalue
        elif isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--"):
            target = n.expr
        if isinstance(target, c_ast.ID):
            out.add(target.name)
    return out


def _enclosing(
    record: LoopRecord, loops: list[c_ast.For], scope: Scope, walker: Walker
) -> tuple[dict[str, Expr | Symbolic], dict[str, int]]:
    """LoopLevels of the sequential loops around; middle values of their variables."""
    headers: list[Header | None] = []
    loopvars: dict[str, str | None] = {}
    for node in loops:
        ctx = Ctx(scope, dict(loopvars), {})
        try:
            h = parse_header(node, lambda n, c=ctx, at=node: walker.build(c, n, at))
        except NotCanonical:
            h = None
        headers.append(h)
        if h is not None:
            loopvars[h.var] = h.var if h.known else None
    fixed: dict[str, Expr | Symbolic] = {}
    mids: dict[str, int] = {}
    pts: Points | None = Points(1)
    for node, h in zip(loops, headers, strict=True):
        line = node.coord.line if node.coord else 0
        if h is None:
            record.enclosing.append(LoopLevel("?", "?", "?", "?", None, None, [], line))
            pts = None
            continue
        deps = sorted(exprs.free_vars(h.start) | exprs.free_vars(h.limit)) if h.known else []
        level = LoopLevel(
            h.var, h.lower_text, h.upper_text, h.op, h.step, None, deps, line, h.step_text
        )
        record.enclosing.append(level)
        mid = None
        if h.known:
            try:
                env = {k: v for k, v in fixed.items() if not isinstance(v, Symbolic)}
                s0 = exprs.evaluate(exprs.substitute(h.start, env), {})
                lim = exprs.evaluate(exprs.substitute(h.limit, env), {})
                n = count_scalar(s0, lim, h.op, h.step)
                if not deps:
                    level.trip_count = n
                if n:
                    mid = int(s0 + h.step * ((n - 1) // 2))
            except (Symbolic, TypeError):
                mid = None
        if mid is None:
            fixed[h.var] = Symbolic(f"{h.var} (enclosing loop with unknown bounds)")
        else:
            fixed[h.var] = mid
            mids[h.var] = mid
        pts = _advance(pts, h)
    record.executions = (
        1 if not loops else (int(round(pts.weight.sum())) if pts is not None else None)
    )
    return fixed, mids


def _advance(pts: Points | None, h: Header) -> Points | None:
    """Count the enclosing loops exactly (triangular time loops too)."""
    if pts is None or not h.known:
        return None
    try:
        start, cnt = pts.counts(h.plain())
        return pts.expand(h.var, start, cnt, h.step, sample=True)
    except Symbolic:
        return None


def _fill_nest(record: LoopRecord, root: LoopNode, executions: dict[int, float]) -> list[LoopNode]:
    """``nest``: the chain of for levels, following the busiest inner loop (its nodes
    are returned, the parallel loop first)."""
    node: LoopNode | None = root
    outer: set[str] = set()
    levels: list[LoopNode] = []
    exact = True
    while node is not None:
        h = node.header
        line = node.line
        if h is None:
            record.nest.append(LoopLevel("?", "?", "?", "?", None, None, [], line))
            exact = False
        else:
            deps = (
                sorted((exprs.free_vars(h.start) | exprs.free_vars(h.limit)) & outer)
                if h.known
                else []
            )
            tc = None
            if h.known and not deps:
                try:
                    tc = count_scalar(
                        exprs.evaluate(h.start, {}), exprs.evaluate(h.limit, {}), h.op, h.step
                    )
                except Symbolic:
                    tc = None
            record.nest.append(
                LoopLevel(
                    h.var, h.lower_text, h.upper_text, h.op, h.step, tc, deps, line, h.step_text
                )
            )
            outer.add(h.var)
            exact = exact and h.known
        levels.append(node)
        loops = [c for c, _ in node.children if c.kind == "for"]
        node = max(loops, key=lambda c: executions.get(id(c), 0.0)) if loops else None
    if record.trip_count is not None and exact:
        record.iterations = int(round(executions.get(id(levels[-1]), 0.0)))
    return levels


def _inner_split(
    record: LoopRecord,
    root: LoopNode,
    levels: list[LoopNode],
    executions: dict[int, float],
    weights: WeightTable,
) -> InnerSplit | None:
    """The work of one run split at the nest's second loop: what one of its iterations
    costs (the loops inside it included) and what the rest of a distributed iteration
    costs. A profile run that samples that loop's trip counts (neighbour lists, CSR
    rows) scales the first by them; the source alone counted each such loop once."""
    if record.trip_count is None or len(levels) < 2:
        return None
    second = levels[1]
    steps = executions.get(id(second), 0.0)
    if steps <= 0:
        return None
    inside = {id(n) for n in _walk(second)}
    step_ops: dict[str, float] = {}
    outer_ops: dict[str, float] = {}
    for node in _walk(root):
        n = executions.get(id(node), 0.0)
        into = step_ops if id(node) in inside else outer_ops
        for kind, c in node.ops.items():
            into[kind] = into.get(kind, 0.0) + c * n
    per_step = {k: v / steps for k, v in step_ops.items() if v}
    per_row = {k: v / record.trip_count for k, v in outer_ops.items() if v and record.trip_count}
    return InnerSplit(
        outer_ops=per_row,
        step_ops=per_step,
        outer_weighted=weights.weighted(per_row),
        step_weighted=weights.weighted(per_step),
        innermost_per_step=executions.get(id(levels[-1]), 0.0) / steps,
    )


def _walk(root: LoopNode) -> list[LoopNode]:
    out = [root]
    for child, _ in root.children:
        out += _walk(child)
    return out


def _fill_ops(
    record: LoopRecord, root: LoopNode, deepest: LoopNode, counts, weights: WeightTable
) -> None:
    record.op_bodies = [  # also when sizes are unknown: their formula needs no value
        {"levels": [n.plain() for n in path], "weighted": w, "factor": factor}
        for path, factor in _paths(root)
        if (w := weights.weighted(path[-1].ops))
    ]
    if record.trip_count is None:
        return
    totals: dict[str, float] = {}
    weighted = 0.0
    work = None
    if counts.per_iteration or record.trip_count == 0:
        work = np.zeros(record.trip_count)
    for node in _walk(root):
        n = counts.executions.get(id(node), 0.0)
        for kind, c in node.ops.items():
            totals[kind] = totals.get(kind, 0.0) + c * n
        w = weights.weighted(node.ops)
        weighted += w * n
        if work is not None and id(node) in counts.per_iteration and w:
            work += w * counts.per_iteration[id(node)]
    record.ops = {k: _tidy(v) for k, v in sorted(totals.items()) if v}
    record.weighted_ops = _tidy(weighted)
    iters = record.iterations or 0
    if iters > 0:
        record.ops_per_iteration = OpCounts(
            {k: _tidy(v / iters) for k, v in record.ops.items()}, _tidy(weighted / iters)
        )
    elif record.iterations is None:  # estimated nest: the innermost body's own ops
        own = {k: _tidy(v) for k, v in sorted(deepest.ops.items()) if v}
        record.ops_per_iteration = OpCounts(own, _tidy(weights.weighted(own)))
    if counts.uniform and record.trip_count:  # closed form: cheap for millions
        each = _tidy(weighted / record.trip_count)
        record.work_per_iteration = UniformWork(each, record.trip_count)
    elif work is not None:
        record.work_per_iteration = work.tolist()


def _paths(root: LoopNode, path: tuple = (), factor: float = 1.0):
    """(loops from the parallel one down to a body, product of the branch factors on
    the way) for every loop body of the nest."""
    here = (*path, root)
    yield list(here), factor
    for child, f in root.children:
        yield from _paths(child, here, factor * f)


def _tidy(x: float) -> float:
    r = round(x)
    return float(r) if abs(x - r) < 1e-9 * max(1.0, abs(x)) else float(x)


def _fill_footprint(
    record: LoopRecord, root: LoopNode, collapse: int, trip: int | None, threads: int
) -> None:
    arrays, warnings = plain_arrays(root)
    record.arrays = arrays
    record.warnings += [w for w in warnings if w not in record.warnings]
    if trip is None:
        return
    total, details = footprint(arrays, collapse, None)
    for arr, (n, exact, note) in zip(arrays, details, strict=True):
        arr["distinct_elements"] = n
        arr["distinct_bytes"] = n * arr["elem_size"] if n is not None and arr["elem_size"] else None
        arr["bytes"] = arr["distinct_bytes"]
        arr["exact"] = exact
        # how the figure was found: a count at any size, an enumeration of the nest (the
        # cost grows with it), or a bound (indirect or unanalysable subscripts)
        arr["counted"] = (
            "barvinok" if note == COUNTED else ("enumerated" if exact else "upper bound")
        )
        if note == COUNTED:
            continue
        if note and note not in arr["notes"]:
            arr["notes"].append(note)
            if not any(a["kind"] in ("whole", "unknown") for a in arr["accesses"]):
                record.warnings.append(f"{arr['name']}: {note}")
    record.footprint_bytes = total
    if total is None:
        record.warnings.append("footprint unknown for some arrays (see arrays)")
        return
    value, _ = per_thread(arrays, collapse, trip, threads, "static", None, total)
    record.footprint_bytes_per_thread = value


def per_thread_footprint(
    record: LoopRecord, threads: int, schedule: str, chunk: int | None
) -> int | None:
    """Max over threads of distinct bytes per thread, from ``record``'s plain data only."""
    if record.trip_count is None or record.footprint_bytes is None:
        return None
    collapse = max(1, record.directive.clauses.collapse or 1)
    # ranking asks for dozens of variants: three representative threads and 512 chunks
    # each bound the cost (the analysis's own figure stays exact)
    value, _ = per_thread(
        record.arrays,
        collapse,
        record.trip_count,
        threads,
        schedule,
        chunk,
        record.footprint_bytes,
        sample_threads=RANK_THREADS,
        run_cap=RANK_RUN_CAP,
    )
    return value

"""How many times each loop body of a nest runs, in total and per distributed iteration.

Exact for nests whose bounds are expressions of outer loop variables
(triangular, banded, strided, ``collapse``): inner trip counts are evaluated
at every needed outer point.  A level's variable is materialised only when a
deeper bound uses it, or for the distributed levels when per-iteration work
is wanted.  Beyond ``points.CAP`` points an expansion is sampled
systematically and the result is flagged as an estimate.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from autotune.analysis import exprs
from autotune.analysis.exprs import Symbolic
from autotune.analysis.loopnode import LoopNode
from autotune.analysis.points import CAP, Points, TooLarge


@dataclass
class Counts:
    """Body executions per LoopNode (by ``id``) for one run of the nest."""

    executions: dict[int, float] = field(default_factory=dict)
    per_iteration: dict[int, np.ndarray] = field(default_factory=dict)
    trip_count: int | None = None  # distributed iterations (collapsed space)
    sampled: int = 1  # >1: some expansion kept one point in ``sampled``
    uniform: bool = False  # every distributed iteration does the same work
    warnings: list[str] = field(default_factory=list)


def bound_vars(node: LoopNode) -> set[str]:
    """Variables used by the bounds of ``node`` and every loop below it."""
    out: set[str] = set()
    if node.known:
        out |= exprs.free_vars(node.header.start) | exprs.free_vars(node.header.limit)
    for child, _ in node.children:
        out |= bound_vars(child)
    return out


def distributed_trip(root: LoopNode, collapse: int) -> tuple[int | None, str]:
    """Iterations of the ``collapse`` outermost levels (the ones OpenMP distributes).

    Returns (count, why it is unknown).
    """
    chain = chain_of(root, collapse)
    if len(chain) < collapse:
        return None, f"collapse({collapse}) over {len(chain)} perfectly nested loops"
    pts = Points(1)
    for depth, node in enumerate(chain):
        if not node.known:
            why = "; ".join(node.header.symbolic) if node.header else "not canonical"
            return None, why or "bounds not evaluable"
        try:
            start, cnt = pts.counts(node.header.plain())
            if depth + 1 < collapse and node.var in bound_vars_chain(chain[depth + 1 :]):
                pts = pts.expand(node.var, start, cnt, node.header.step, cap=CAP * 4)
            else:
                pts = pts.scaled(cnt)
        except Symbolic as exc:
            return None, exc.what
        except TooLarge as exc:
            return None, f"collapsed space too large to count ({exc})"
    return int(round(pts.weight.sum())), ""


def bound_vars_chain(chain: list[LoopNode]) -> set[str]:
    out: set[str] = set()
    for n in chain:
        if n.known:
            out |= exprs.free_vars(n.header.start) | exprs.free_vars(n.header.limit)
    return out


def chain_of(root: LoopNode, k: int) -> list[LoopNode]:
    """The first ``k`` perfectly nested ``for`` levels from ``root``."""
    chain = [root]
    while len(chain) < k:
        loops = [c for c, _ in chain[-1].children if c.kind == "for"]
        if len(loops) != 1:
            break
        chain.append(loops[0])
    return chain


def count(root: LoopNode, collapse: int, want_work: bool, trip: int | None) -> Counts:
    """Executions of every loop body; per distributed iteration when ``want_work``."""
    res = Counts(trip_count=trip)
    want_work = want_work and trip is not None
    chain = chain_of(root, collapse)
    inner_bounds = set().union(*(bound_vars(c) for c, _ in root.children))
    if want_work and not ({n.var for n in chain} & inner_bounds):
        res.uniform, want_work = True, False  # no bound depends on a distributed variable
    _visit(root, Points(1), 0, collapse, want_work, res)
    if res.sampled > 1:
        res.warnings.append(f"iteration counts estimated by sampling 1 point in {res.sampled}")
    return res


def _visit(
    node: LoopNode, pts: Points, depth: int, collapse: int, want_work: bool, res: Counts
) -> None:
    cnt: np.ndarray
    start = None
    if node.known:
        try:
            start, cnt = pts.counts(node.header.plain())
        except Symbolic as exc:
            res.warnings.append(f"line {node.line}: {exc.what}: counted once")
            cnt = np.ones(pts.n, dtype=np.int64)
            start = None
    elif node.csr_total is not None:
        total_w = float(pts.weight.sum()) or 1.0
        cnt = np.full(pts.n, node.csr_total / total_w)
    else:
        cnt = np.full(pts.n, node.estimate)
    execs = pts.weight * cnt
    res.executions[id(node)] = res.executions.get(id(node), 0.0) + float(execs.sum())
    res.sampled = max(res.sampled, pts.sampled)
    last_distributed = depth == collapse - 1
    expand = start is not None and (
        node.var in set().union(*(bound_vars(c) for c, _ in node.children))
        or (want_work and depth < collapse)
    )
    if expand:
        cap = max(CAP, (res.trip_count or 0) + 1) if depth < collapse else CAP
        inner = pts.expand(node.var, start, cnt, node.header.step, cap=cap, sample=True)
        if last_distributed and want_work and inner.sampled == 1:
            inner.payload["owner"] = np.arange(inner.n)
    else:
        inner = pts.scaled(cnt)
    if "owner" in inner.payload:
        _add_per_iter(res, node, inner if last_distributed else pts.scaled(cnt))
    elif "owner" in pts.payload:
        _add_per_iter(res, node, pts.scaled(cnt))
    for child, f in node.children:
        _visit(child, inner.scaled(f) if f != 1.0 else inner, depth + 1, collapse, want_work, res)


def _add_per_iter(res: Counts, node: LoopNode, pts: Points) -> None:
    n = res.trip_count or 0
    owner = pts.payload["owner"]
    acc = res.per_iteration.setdefault(id(node), np.zeros(n))
    acc += np.bincount(owner, weights=pts.weight, minlength=n)[:n]

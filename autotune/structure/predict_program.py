"""Predict every node of a structure tree, and the whole program, at an unmeasured (n, p).

Times are per program run. Each node is predicted per execution and then
multiplied by its executions at the target, E* = E(n_ref) * prod k*(a)/k(a,
n_ref) over its iteration ancestors a, where k comes from the analysis at
each size (n_ref: the largest measured size). Per kind:

* loop (parMap/farm): T(n, p) = T(n)/p + Abar(n, p), automatic method choice;
* section: a task, T(n) + Abar(n, p) (one thread runs it);
* sections: E[max] of the sections (seed 002): the measured per-execution
  samples at n_ref give each section's four moments; they are scaled to the
  target by the section's own predicted mean (shape kept), fitted with lambda
  distributions and composed; plus the construct's own overhead per
  execution (region time - max of its sections: fork, join, dispatch), the
  median over the sizes measured at the target p, since it does not grow
  with n. One thread (p = 1) runs the sections in turn: the sum of the means;
* dc: the skeleton dc, tree form (r^d/p) T(n/r^d) + O(n) + Abar when the
  branching r and task depth d are known, else T(n)/p + Abar;
* iteration, call, parallel, program: the sum of the children plus the
  node's own remainder (its time minus its timed children's), a task;
  an iteration shows its k* and the body per iteration.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field

from autotune.skeletons.skeleton import Skeleton
from autotune.structure.extrapolate import TASK, Estimate, extrapolate
from autotune.structure.nodes import ProgramTree, StructNode
from autotune.structure.program_runs import Measurements, PointRuns
from autotune.structure.sections_model import composition_check, predict_max


@dataclass
class NodeEstimate:
    """A node's predicted time per program run at the target, and its evidence."""

    id: str
    predicted: float | None = None
    per_execution: float | None = None
    executions: float | None = None
    how: str = ""
    measured: float | None = None
    error: float | None = None
    notes: list[str] = field(default_factory=list)
    details: dict[str, object] = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {
            "predicted_s": self.predicted,
            "predicted_per_execution_s": self.per_execution,
            "predicted_executions": self.executions,
            "how": self.how,
            "measured_s": self.measured,
            "relative_error": self.error,
            "prediction_notes": self.notes,
            "details": self.details,
        }


def frontier(node: StructNode) -> list[StructNode]:
    """The nearest timed nodes below ``node`` (through untimed children)."""
    out: list[StructNode] = []
    for child in node.children:
        if child.duplicate_of is not None:
            continue
        if child.timed:
            out.append(child)
        else:
            out.extend(frontier(child))
    return out


def remainder(pt: PointRuns, node: StructNode) -> float | None:
    """The node's own time per program run: its total minus its timed descendants'."""
    total = pt.total(node.id)
    if total is None:
        return None
    return total - sum(pt.total(c.id) or 0.0 for c in frontier(node))


class ProgramPredictor:
    """Predicts ``tree`` (timed at ``grid``) at size ``n_star`` on ``p_star`` threads."""

    def __init__(
        self,
        tree: ProgramTree,
        tree_star: ProgramTree,
        grid: Measurements,
        n_star: float,
        p_star: int,
        target: Measurements | None = None,
    ) -> None:
        self.tree = tree
        self.k_ref = tree.trip_counts()
        self.k_star = tree_star.trip_counts()
        self.grid = grid
        self.n_star = float(n_star)
        self.p_star = int(p_star)
        self.target = target.point(self.n_star, self.p_star) if target else None
        self.n_ref = max(grid.sizes())
        pes = [p for p in grid.threads() if grid.point(self.n_ref, p)]
        self.p_ref = self.p_star if self.p_star in pes else max(pes)
        self.estimates: dict[str, NodeEstimate] = {}

    # -- driver ----------------------------------------------------------------------------
    def run(self) -> dict[str, NodeEstimate]:
        self._node(self.tree.root, [])
        if self.target is not None:
            for est in self.estimates.values():
                est.measured = self.target.total(est.id)
                if est.measured and est.predicted is not None:
                    est.error = (est.predicted - est.measured) / est.measured
        return self.estimates

    def _node(self, node: StructNode, ancestors: list[StructNode]) -> NodeEstimate:
        est = NodeEstimate(node.id)
        self.estimates[node.id] = est
        if node.duplicate_of is not None:
            est.how = f"measured with {node.duplicate_of}"
            for c in node.children:
                self._node(c, [*ancestors, node])
            return est
        est.executions = self._executions(node, ancestors, est)
        handler = {
            "loop": self._loop,
            "dc": self._dc,
            "section": self._task,
            "sections": self._sections,
        }.get(node.kind, self._group)
        handler(node, ancestors, est)
        if est.per_execution is not None and est.executions is not None:
            est.predicted = est.per_execution * est.executions
        return est

    # -- executions ------------------------------------------------------------------------
    def _executions(
        self, node: StructNode, ancestors: list[StructNode], est: NodeEstimate
    ) -> float | None:
        if node.kind == "program":
            return 1.0
        pt = self.grid.point(self.n_ref, self.p_ref)
        e_ref = pt.executions(node.id) if (pt and node.timed) else None
        if e_ref is None:
            return None
        scale = 1.0
        for a in ancestors:
            if a.kind != "iteration":
                continue
            k0, k1 = self.k_ref.get(a.id), self.k_star.get(a.id)
            if k0 and k1 is not None:
                scale *= k1 / k0
            else:
                est.notes.append(f"trip count of {a.id} unknown: executions as measured")
        return e_ref * scale

    def _rows(self, node_id: str) -> list[tuple[float, int, float]]:
        return self.grid.rows(lambda pt: pt.per_execution(node_id))

    def _apply(self, est: NodeEstimate, e: Estimate) -> None:
        est.per_execution = e.value
        est.how = e.how
        est.notes.extend(e.notes)
        est.details["estimate"] = e.to_dict()

    # -- kinds -----------------------------------------------------------------------------
    def _loop(self, node: StructNode, ancestors: list[StructNode], est: NodeEstimate) -> None:
        if not node.timed:
            est.how = "not timed"
            return
        self._apply(
            est, extrapolate(self._rows(node.id), Skeleton(node.skeleton), self.n_star, self.p_star)
        )

    def _task(self, node: StructNode, ancestors: list[StructNode], est: NodeEstimate) -> None:
        if not node.timed:
            est.how = "not timed"
            return
        self._apply(est, extrapolate(self._rows(node.id), TASK, self.n_star, self.p_star))
        for c in node.children:
            self._node(c, [*ancestors, node])

    def _dc(self, node: StructNode, ancestors: list[StructNode], est: NodeEstimate) -> None:
        if not node.timed:
            est.how = "not timed"
            return
        r, d = node.facts.get("branching"), node.facts.get("depth")
        rows = self._rows(node.id)
        e = None
        if isinstance(r, int) and isinstance(d, int) and r >= 2 and d >= 1:
            e = extrapolate(rows, Skeleton("dc", branching=r, depth=d), self.n_star, self.p_star)
            if e.value is None:
                est.notes.append(f"tree form (r={r}, d={d}) failed: {'; '.join(e.notes)}")
                e = None
        if e is None:
            e = extrapolate(rows, Skeleton("dc"), self.n_star, self.p_star)
        self._apply(est, e)
        est.details["model"] = (
            "skeleton dc (Lobachev-Loogen); the component fit (Saez and Printista) "
            "needs per-component traces, which are not instrumented"
        )

    def _group(self, node: StructNode, ancestors: list[StructNode], est: NodeEstimate) -> None:
        kids = [self._node(c, [*ancestors, node]) for c in node.children]
        parts = [
            k.predicted for k, c in zip(kids, node.children, strict=True) if c.duplicate_of is None
        ]
        if any(v is None for v in parts):
            est.notes.append("a child has no prediction: the sum leaves it out")
        total = sum(v for v in parts if v is not None)
        if not node.timed:
            est.how = "sum of the children (not timed itself)"
            est.per_execution, est.executions = total, 1.0
            return
        rows = self.grid.rows(lambda pt: _per_exec(remainder(pt, node), pt, node.id))
        rest = extrapolate(rows, TASK, self.n_star, self.p_star)
        est.details["remainder"] = rest.to_dict()
        if self.target is not None:
            est.details["remainder_measured_s"] = remainder(self.target, node)
        rest_total = (rest.value or 0.0) * (est.executions or 0.0)
        est.details["remainder_predicted_s"] = rest_total if rest.value is not None else None
        if rest.value is None:
            est.notes.append(f"own remainder not extrapolated: {'; '.join(rest.notes)}")
        est.notes.extend(n for n in rest.notes if n not in est.notes)
        if not est.executions:
            est.how = "sum of the children (executions unknown)"
            est.per_execution, est.executions = total, 1.0
            return
        est.per_execution = (total + rest_total) / est.executions
        what = (
            "top-level nodes + sequential remainder"
            if node.kind == "program"
            else "children + own remainder"
        )
        est.how = f"sum of {what} ({rest.how})"
        if node.kind == "iteration":
            k = self.k_star.get(node.id)
            if k:
                body = est.per_execution / k
                est.details.update({"k": k, "body_per_iteration_s": body})
                est.how = f"k={k} x body {body:.4g} s; {est.how}"

    def _sections(self, node: StructNode, ancestors: list[StructNode], est: NodeEstimate) -> None:
        secs = [c for c in node.children if c.kind == "section"]
        kids = [self._node(c, [*ancestors, node]) for c in secs]
        if (
            not node.timed
            or not secs
            or not all(c.timed for c in secs)
            or any(k.per_execution is None for k in kids)
        ):
            est.how = "sum of the sections (not all timed or predicted)"
            est.per_execution = sum(k.predicted or 0.0 for k in kids)
            est.executions = 1.0
            return
        shape = self.grid.point(self.n_ref, self.p_ref)
        result = predict_max(
            shape, [c.id for c in secs], [k.per_execution for k in kids], self.p_star
        )
        est.notes.extend(result.notes)
        rows = self.grid.rows(lambda pt: _overhead(pt, node, secs))
        at_p = [max(t, 0.0) for _, q, t in rows if q == self.p_star]
        if at_p:  # fork/join and dispatch: a cost per execution that does not grow with n
            over = Estimate(
                statistics.median(at_p),
                f"median over the {len(at_p)} sizes measured at p={self.p_star}, not extrapolated",
            )
        else:
            over = extrapolate(rows, TASK, self.n_star, self.p_star)
        est.details["composition"] = result.to_dict()
        est.details["overhead"] = over.to_dict()
        est.per_execution = result.value + (over.value or 0.0)
        est.how = f"{result.how} + construct overhead {(over.value or 0.0):.3g} s ({over.how})"
        checks = []
        if self.target is not None:
            checks.append(composition_check(self.target, node.id, [c.id for c in secs]))
        elif shape is not None and shape.p >= 2:
            checks.append(composition_check(shape, node.id, [c.id for c in secs]))
        est.details["composition_checks"] = [c for c in checks if c is not None]


def _per_exec(value: float | None, pt: PointRuns, node_id: str) -> float | None:
    e = pt.executions(node_id)
    return value / e if value is not None and e else None


def _overhead(pt: PointRuns, node: StructNode, secs: list[StructNode]) -> float | None:
    """The construct's time per execution beyond its sections (max, or sum on one thread)."""
    region = pt.per_execution(node.id)
    pairs = pt.paired([s.id for s in secs])
    if region is None or not pairs:
        return None
    combine = sum if pt.p == 1 else max
    return region - math.fsum(combine(x) for x in pairs) / len(pairs)

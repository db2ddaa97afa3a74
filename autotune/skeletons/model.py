"""The skeleton predictors behind the common model shape (``autotune.modelshape``).

``SkeletonModel`` is T(n, p) = W(n, p) + Abar(n, p) of seed 000 for one skeleton
(parMap, farm, divide and conquer, iteration), fitted from rows of measured times and
predicted with the paper's automatic choice of extrapolation methods.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence

from autotune.errors import UserError
from autotune.modelshape import Estimate, ModelCard, Row, RowError, number
from autotune.skeletons.predictor import predict_point
from autotune.skeletons.skeleton import Skeleton
from autotune.skeletons.tables import TimeTable, parse_table

WHAT = "skeleton model"


class SkeletonModel:
    """T(n, p) for ``skeleton`` ("parmap", "farm", "dc", "iteration"); ``method``
    picks the extrapolation ("auto": the paper's choice by checked error)."""

    def __init__(
        self,
        skeleton: str = "parmap",
        method: str = "auto",
        tasks: int | None = None,
        iterations: int | None = None,
        branching: int | None = None,
        depth: int | None = None,
        known: str | None = None,
    ) -> None:
        self.skeleton = skeleton
        self.method = method
        self.tasks = tasks
        self.iterations = iterations
        self.branching = branching
        self.depth = depth
        self.known = known  # "n<=100": the rows the estimate may use (the paper's hiding)

    def fit(self, rows: Sequence[Row] | TimeTable) -> SkeletonModel:
        """Rows in any layout ``autotune predict`` reads: ``n, p, time`` (p 0 = a
        sequential run), wide ``n, T_n_1, T_n_7, ...``, or ``p, time`` for one unnamed
        problem size; repeated (n, p) rows are averaged."""
        self.skeleton_ = Skeleton(
            self.skeleton,
            tasks=self.tasks,
            iterations=self.iterations,
            branching=self.branching,
            depth=self.depth,
        )
        if isinstance(rows, TimeTable):
            self.table_ = rows
            return self
        if not rows:
            raise UserError(f"{WHAT}: no rows to fit")
        header = list(rows[0])
        text = io.StringIO()
        writer = csv.writer(text)
        writer.writerow(header)
        for row in rows:
            writer.writerow(["" if row.get(h) is None else row[h] for h in header])
        try:
            self.table_ = parse_table(text.getvalue(), "<rows>")
        except UserError as exc:  # "<rows>:K": line K of the rows as a table, 1 its header
            k = (exc.location or "").rpartition(":")[2]
            if not k.isdigit():
                raise
            raise RowError(f"{WHAT}: {exc.message}", int(k) - 1) from None
        return self

    def predict(self, at: Mapping[str, float]) -> Estimate:
        """T(n, p) at ``at["n"]`` (left out for a by-p table) and ``at["p"]``; the
        interval is the chosen methods' error where they predicted known points."""
        if not hasattr(self, "table_"):
            raise UserError(f"{WHAT}: fit it before predicting")
        p = int(number(at, "p", WHAT))
        n = None if self.table_.fixed_n or at.get("n") is None else number(at, "n", WHAT)
        pred = predict_point(
            self.table_, self.skeleton_, n, p, self.method, known=self.known, best_effort=True
        )
        if not pred.ok or pred.time is None:
            raise UserError(f"{WHAT}: {pred.failure or 'no estimate'}")
        rel = pred.uncertainty
        basis = (
            "the chosen methods' relative error on the points they predicted"
            if rel is not None
            else "no check was possible (too few points): no interval"
        )
        if pred.unchecked:
            # a part no check accepted: the interval is at least that part's own error
            # (an interval from the checked part alone would claim more than is known)
            parts = [c.check_error for c in (pred.t_seq, pred.abar, *pred.inner) if c.unchecked]
            known = [e for e in parts if e is not None]
            rel = max([rel or 0.0, *known]) if known and rel is not None else None
            basis += (
                "; unchecked: no method passed the paper's check for "
                + ", ".join(
                    _part(pred, c) for c in (pred.t_seq, pred.abar, *pred.inner) if c.unchecked
                )
                + (", whose own error sets the interval" if rel is not None else ": no interval")
            )
        low, high = (None, None) if rel is None else (pred.time * (1 - rel), pred.time * (1 + rel))
        return Estimate(pred.time, "s", low, high, basis, pred.to_dict())

    def describe(self) -> ModelCard:
        return ModelCard(
            name="skeleton",
            title=f"skeleton predictor ({self.skeleton})",
            source="Lobachev and Loogen, skeleton-based runtime estimation",
            predicts="T(n, p) in seconds: W(n, p) + Abar(n, p)",
            fit_columns=("n", "p", "time (or wide: n, T_n_1, T_n_8, ...)"),
            query=("n", "p"),
            paper_tables=("lobachev-gauss", "lobachev-rabin-miller", "lobachev-lbm"),
            notes="methods: spline, loess, lm(poly), lm, mean; chosen by error on known points",
        )


def _part(pred, choice) -> str:
    """The name of a component of a prediction, as the paper writes it."""
    if choice is pred.t_seq:
        return "T(n)"
    return "Abar(n,p)" if choice is pred.abar else "Abar at a measured size"

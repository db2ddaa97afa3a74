"""Hypercube divide and conquer behind the common model shape (``autotune.modelshape``).

``HypercubeModel`` fits the seed-003 component costs from trace rows and predicts
T(P) for sizes, a processor count and the network's latency and per-word time.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from autotune.errors import UserError
from autotune.modelshape import Estimate, ModelCard, Row, RowError, number
from autotune.structmodels.hdc import COMPONENTS, HypercubeDC, Traces

WHAT = "hypercube D&C model"
NOT_SIZES = frozenset({"component", "seconds", "note"})


class HypercubeModel:
    """T(P) = sum over log2 P levels of divide + combine + exchange, plus the leaf's
    sequential time; ``split``: the sizes halved at each level."""

    def __init__(self, split: tuple[str, ...] = ("M",)) -> None:
        self.split = split

    def fit(self, rows: Sequence[Row]) -> HypercubeModel:
        """Rows of ``component`` (divide, combine, sequential), the sizes its cost is
        linear in (``N``, ``M``) and ``seconds``."""
        traces = Traces()
        for i, row in enumerate(rows, 1):
            comp = row.get("component")
            if comp not in COMPONENTS:
                raise RowError(f"{WHAT}: component must be one of {COMPONENTS}", i)
            sizes = {
                k: number(row, k, WHAT, i)
                for k, v in row.items()
                if k not in NOT_SIZES and v not in (None, "")
            }
            traces.add(str(comp), sizes, number(row, "seconds", WHAT, i))
        try:
            self.model_ = HypercubeDC(split=tuple(self.split)).fit(traces)
        except ValueError as exc:
            raise UserError(f"{WHAT}: {exc}") from None
        self.spread_ = _prediction_spread(self.model_, traces)
        return self

    def predict(self, at: Mapping[str, float]) -> Estimate:
        """T at sizes ``N`` and ``M``, ``P`` processors, ``latency`` and ``gap`` (s per
        word); ``words`` per level defaults to N. Interval: two standard errors of each
        component's least-squares prediction at the sizes used, added over the levels
        (one fit serves every level, so their errors add rather than cancel)."""
        if not hasattr(self, "model_"):
            raise UserError(f"{WHAT}: fit it before predicting")
        sizes = {k: number(at, k, WHAT) for k in ("N", "M") if k in at}
        words = number(at, "words", WHAT) if at.get("words") is not None else None
        try:
            pred = self.model_.predict_one(
                sizes,
                int(number(at, "P", WHAT)),
                number(at, "latency", WHAT),
                number(at, "gap", WHAT),
                words,
            )
        except (ValueError, KeyError) as exc:
            raise UserError(f"{WHAT}: {exc}") from None
        parts = [(c, lv.sizes) for lv in pred.levels for c in ("divide", "combine")]
        parts.append(("sequential", pred.leaf_sizes))
        errors = [_standard_error(self.spread_, c, sz) for c, sz in parts]
        total = float(pred.total_s)
        if any(e is None for e in errors):
            basis = "too few traces for a residual variance: no interval"
            return Estimate(total, "s", None, None, basis, pred.to_dict())
        half = 2.0 * sum(errors)
        basis = "two standard errors of the component fits' predictions, added over levels"
        return Estimate(total, "s", total - half, total + half, basis, pred.to_dict())

    def describe(self) -> ModelCard:
        return ModelCard(
            name="hdc",
            title="hypercube divide and conquer",
            source="Saez and Printista, hypercube divide and conquer",
            predicts="T(P) in seconds on a hypercube of P processors",
            fit_columns=("component", "N", "M", "seconds"),
            query=("N", "M", "P", "latency", "gap"),
            paper_tables=("saez-traces",),
            notes="component costs linear in the sizes, fitted by least squares",
        )


def _prediction_spread(model: HypercubeDC, traces: Traces) -> dict[str, tuple]:
    """Per component, what its OLS prediction interval needs: the residual variance
    s^2 = RSS / (n - k - 1) and (A'A)^-1 of the design A = [1, sizes]."""
    out = {}
    for comp in COMPONENTS:
        names = model.features_[comp]
        X, y = traces.arrays(comp, names)
        A = np.column_stack([np.ones(len(y)), X])
        dof = len(y) - A.shape[1]
        if dof < 1:
            out[comp] = (names, None, None)
            continue
        resid = y - model.components_[comp].predict(X)
        out[comp] = (names, float(resid @ resid) / dof, np.linalg.pinv(A.T @ A))
    return out


def _standard_error(spread: dict[str, tuple], comp: str, sizes: dict[str, float]) -> float | None:
    """Standard error of one predicted component cost at ``sizes``."""
    names, s2, inv = spread[comp]
    if s2 is None:
        return None
    a = np.array([1.0, *(sizes[n] for n in names)])
    return float(np.sqrt(s2 * (1.0 + a @ inv @ a)))


def trace_rows(traces: Traces) -> list[dict[str, object]]:
    """Traces as the rows ``HypercubeModel.fit`` reads (a paper's tables, for one)."""
    return [
        {"component": comp, **sizes, "seconds": seconds}
        for comp, rows in traces.rows.items()
        for sizes, seconds in rows
    ]

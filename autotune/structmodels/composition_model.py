"""Stochastic composition behind the common model shape (``autotune.modelshape``).

``CompositionModel`` predicts E[Y^k] for Y = max(X1, X2), two independent task
times given by their first four moments or by samples (seed 002).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from autotune.errors import UserError
from autotune.modelshape import Estimate, ModelCard, Row, RowError, number
from autotune.structmodels.composition import METHODS, compose, moment_label
from autotune.structmodels.moments import Moments

WHAT = "composition model"
MOMENT_COLUMNS = ("mean", "variance", "skewness", "kurtosis")


class CompositionModel:
    """E[max(X1, X2)^k] by ``method`` ("exact": the order-statistics integral on the
    two lambda fits; "lambda": the paper's approximation; also "heuristic",
    "deterministic")."""

    def __init__(self, method: str = "exact") -> None:
        self.method = method

    def fit(self, rows: Sequence[Row]) -> CompositionModel:
        """Rows with a ``task`` name (two tasks) and either the four moments (one row
        per task) or ``seconds`` (one row per sampled run)."""
        if self.method not in METHODS:
            raise UserError(f"{WHAT}: method must be one of {', '.join(METHODS)}")
        tasks: dict[str, list[Row]] = {}
        for i, row in enumerate(rows, 1):
            if row.get("task") in (None, ""):
                raise RowError(f"{WHAT}: no task", i)
            tasks.setdefault(str(row["task"]), []).append(row)
        if len(tasks) != 2:
            raise UserError(f"{WHAT}: give two tasks, got {len(tasks)} ({', '.join(tasks)})")
        try:
            self.tasks_ = {name: _moments(name, rs) for name, rs in tasks.items()}
        except ValueError as exc:
            raise UserError(f"{WHAT}: {exc}") from None
        return self

    def predict(self, at: Mapping[str, float]) -> Estimate:
        """E[Y^k] at ``at["k"]`` (1 to 4; default 1). Interval: the values of the
        paper's approximation and the exact integral on the same fits, whose gap is
        the approximation's error (the fits' own error is in the details)."""
        if not hasattr(self, "tasks_"):
            raise UserError(f"{WHAT}: fit it before predicting")
        k = int(number({"k": 1, **at}, "k", WHAT))
        if not 1 <= k <= 4:
            raise UserError(f"{WHAT}: k must be 1 to 4 (four moments of each task are known)")
        m1, m2 = self.tasks_.values()
        result = compose(m1, m2, orders=(k,))
        values = {m: v[0] for m, v in result.values.items()}
        pair = (values["lambda"], values["exact"])
        details = result.to_dict()
        basis = "the paper's pointwise-max approximation against the exact integral"
        unit = "s" if k == 1 else f"s^{k}"
        details = {"moment": moment_label(k), **details}
        return Estimate(values[self.method], unit, min(pair), max(pair), basis, details)

    def describe(self) -> ModelCard:
        return ModelCard(
            name="composition",
            title="binary parallel composition of stochastic tasks",
            source="Gautama and van Gemund, binary composition of stochastic task times",
            predicts="E[max(X1, X2)^k]: the k-th raw moment of two concurrent tasks' time",
            fit_columns=("task", *MOMENT_COLUMNS, "or seconds"),
            query=("k",),
            notes="each task fitted by a generalised lambda distribution (Ramberg-Schmeiser)",
        )


def _moments(name: str, rows: list[Row]) -> Moments:
    """One task's moments: given in one row, or from its rows' ``seconds``."""
    if all(c in rows[0] and rows[0][c] not in (None, "") for c in MOMENT_COLUMNS):
        if len(rows) != 1:
            raise ValueError(f"task {name}: give its moments in one row")
        return Moments(*(number(rows[0], c, WHAT) for c in MOMENT_COLUMNS))
    samples = np.array([number(r, "seconds", f"{WHAT}, task {name}") for r in rows])
    return Moments.from_samples(samples)

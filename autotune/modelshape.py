"""One shape for every performance model (Kerncraft's lesson: one interface, many models).

The power-law loop model, the skeleton predictors, stochastic composition, the
hypercube divide and conquer and isoefficiency answer different questions from
different inputs, but a user, the CLI and the report treat them alike: fit from
measurements or from a paper's table (rows of named values), predict at a point
(named values) with an uncertainty that says where it comes from, and describe
what the model is. ``autotune.tuning.registry`` lists them by name.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol, runtime_checkable

from autotune.errors import UserError

Row = Mapping[str, Any]


@dataclass(frozen=True)
class ModelCard:
    """What a model is: its name, the paper it follows, what it predicts from what."""

    name: str
    title: str
    source: str  # the paper (seed) it implements
    predicts: str  # the quantity and its unit
    fit_columns: tuple[str, ...]  # what each row given to ``fit`` holds
    query: tuple[str, ...]  # the names ``predict`` needs
    paper_tables: tuple[str, ...] = ()  # shipped tables it can be fitted from
    notes: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Estimate:
    """A prediction with its uncertainty: the interval ``[low, high]`` and what it is
    (``basis``), or no interval and the reason in ``basis``."""

    value: float
    unit: str
    low: float | None
    high: float | None
    basis: str
    details: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:  # numpy scalars in, plain floats out (JSON, repr)
        object.__setattr__(self, "value", float(self.value))
        for name in ("low", "high"):
            if getattr(self, name) is not None:
                object.__setattr__(self, name, float(getattr(self, name)))

    @property
    def relative_halfwidth(self) -> float | None:
        """Half the interval over the value (None without an interval)."""
        if self.low is None or self.high is None or not self.value:
            return None
        return (self.high - self.low) / 2 / abs(self.value)

    def to_dict(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "unit": self.unit,
            "low": self.low,
            "high": self.high,
            "basis": self.basis,
            "relative_halfwidth": self.relative_halfwidth,
            "details": self.details,
        }


@runtime_checkable
class PerformanceModel(Protocol):
    """Every model autotune has: ``fit(rows)`` returns the fitted model,
    ``predict(at)`` an ``Estimate``, ``describe()`` its ``ModelCard``."""

    def fit(self, rows: Sequence[Row]) -> PerformanceModel: ...

    def predict(self, at: Mapping[str, float]) -> Estimate: ...

    def describe(self) -> ModelCard: ...


class RowError(UserError):
    """Bad input in one of the rows given to ``fit``: ``row`` counts from 1 (0: the
    names of the columns), so a caller that read the rows from a file can name its line."""

    def __init__(self, message: str, row: int) -> None:
        super().__init__(message, "column names" if row == 0 else f"row {row}")
        self.row = row


def number(values: Mapping[str, Any], key: str, what: str, row: int | None = None) -> float:
    """``values[key]`` as a finite float, or one clear line naming ``what`` needs it (a
    ``RowError`` when ``values`` is row ``row`` of a fit)."""

    def fail(message: str) -> UserError:
        return UserError(message) if row is None else RowError(message, row)

    if key not in values or values[key] in (None, ""):
        raise fail(f"{what}: give {key}")
    try:
        out = float(values[key])
    except (TypeError, ValueError):
        raise fail(f"{what}: {key} is not a number: {values[key]!r}") from None
    if not math.isfinite(out):
        raise fail(f"{what}: {key} must be finite, got {values[key]!r}")
    return out


def require_columns(rows: Sequence[Row], columns: Sequence[str], what: str) -> None:
    """Every row has every column (one line naming the first row that does not)."""
    if not rows:
        raise UserError(f"{what}: no rows to fit")
    for i, row in enumerate(rows, 1):
        missing = [c for c in columns if c not in row or row[c] in (None, "")]
        if missing:
            raise RowError(f"{what}: no {', '.join(missing)}", i)

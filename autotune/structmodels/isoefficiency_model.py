"""Isoefficiency behind the common model shape (``autotune.modelshape``).

``BlockIsoefficiencyModel`` is seed 001's closed form for a matrix in square
blocks: the workload w(p) that holds efficiency E, from the machine's start-up
and per-word times.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from autotune.errors import UserError
from autotune.modelshape import Estimate, ModelCard, Row, number
from autotune.structmodels.isoefficiency import block_isoefficiency

WHAT = "isoefficiency model"
CONSTANTS = ("ts", "tw", "n")


class BlockIsoefficiencyModel:
    """w(p) = max[8 C p ts/tc, 8 C n sqrt(p) tw/tc], C = E / (1 - E); ``form`` "max"
    (the paper's) or "sum" (the full overhead it bounds)."""

    def __init__(self, form: str = "max") -> None:
        self.form = form

    def fit(self, rows: Sequence[Row]) -> BlockIsoefficiencyModel:
        """Rows of ``name`` and ``value``: the constants ts and tw (seconds), n (the
        matrix order) and optionally tc (seconds per operation; default 1: w in
        seconds of useful work). Nothing is regressed: the constants are the fit."""
        given = {str(r.get("name", "")).strip(): r.get("value") for r in rows}
        missing = [c for c in CONSTANTS if c not in given]
        if missing:
            raise UserError(f"{WHAT}: give the constants {', '.join(missing)} (rows name,value)")
        self.constants_ = {c: number(given, c, WHAT) for c in (*CONSTANTS, "tc") if c in given}
        self.constants_.setdefault("tc", 1.0)
        return self

    def predict(self, at: Mapping[str, float]) -> Estimate:
        """w at ``at["p"]`` (at least 9) and efficiency ``at["E"]`` (0 < E < 1)."""
        if not hasattr(self, "constants_"):
            raise UserError(f"{WHAT}: fit it (give the constants) before predicting")
        c = self.constants_
        p, e = number(at, "p", WHAT), number(at, "E", WHAT)
        try:
            w = float(block_isoefficiency(e, c["n"], p, c["ts"], c["tw"], c["tc"], self.form))
        except ValueError as exc:
            raise UserError(f"{WHAT}: {exc}") from None
        unit = "s" if c["tc"] == 1.0 else "operations"
        basis = "closed form of the given constants: no fitted error to report"
        return Estimate(w, unit, w, w, basis, {"constants": dict(c), "form": self.form})

    def describe(self) -> ModelCard:
        return ModelCard(
            name="isoefficiency",
            title="isoefficiency of a matrix in square blocks",
            source="Janovic and Hanuliak, isoefficiency of parallel algorithms",
            predicts="w(p): the useful work that holds efficiency E on p processes",
            fit_columns=("name", "value"),
            query=("p", "E"),
            paper_tables=("janovic-t3e",),
            notes="valid for p >= 9 (a 3x3 grid of blocks at least)",
        )

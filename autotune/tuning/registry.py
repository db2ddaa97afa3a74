"""Every performance model autotune has, by name, and the paper tables they fit from.

The CLI (``autotune models``), the API (``autotune.api.model``) and the report use this
one list; each entry makes a model of the common shape (``autotune.modelshape``):
``fit(rows)``, ``predict(at) -> Estimate``, ``describe() -> ModelCard``.
"""

from __future__ import annotations

import csv
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autotune import textfile
from autotune.errors import UserError
from autotune.models.loop_model import PowerLawLoopModel
from autotune.modelshape import ModelCard, PerformanceModel
from autotune.skeletons.model import SkeletonModel
from autotune.skeletons.tables import read_table
from autotune.structmodels.composition_model import CompositionModel
from autotune.structmodels.hdc_model import HypercubeModel, trace_rows
from autotune.structmodels.isoefficiency_model import BlockIsoefficiencyModel

DATA = Path(__file__).resolve().parent.parent / "data"

FACTORIES: dict[str, Callable[..., PerformanceModel]] = {
    "powerlaw-faithful": lambda **kw: PowerLawLoopModel(variant="faithful", **kw),
    "powerlaw-extended": lambda **kw: PowerLawLoopModel(variant="extended", **kw),
    "skeleton": SkeletonModel,
    "composition": CompositionModel,
    "hdc": HypercubeModel,
    "isoefficiency": BlockIsoefficiencyModel,
}


@dataclass(frozen=True)
class PaperTable:
    """A paper's table shipped in ``autotune/data``, and the model (with its
    parameters) the paper fits to it."""

    name: str
    model: str
    params: dict[str, Any]
    caption: str
    rows: Callable[[], list[dict[str, Any]]]


def _skeleton_rows(file: str) -> Callable[[], list[dict[str, Any]]]:
    def rows() -> list[dict[str, Any]]:
        table = read_table(DATA / file)
        if table.fixed_n:  # one unnamed size: rows of p and time
            return [{"p": m.p, "time": m.time} for m in table.rows]
        return [{"n": m.n, "p": m.p, "time": m.time} for m in table.rows]

    return rows


def _hdc_rows() -> list[dict[str, Any]]:
    from autotune.structmodels.traces import paper_traces

    return trace_rows(paper_traces())


def _constant_rows(file: str) -> Callable[[], list[dict[str, Any]]]:
    def rows() -> list[dict[str, Any]]:
        text = textfile.read_source(DATA / file)
        lines = [ln for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]
        return list(csv.DictReader(lines))

    return rows


PAPER_TABLES = {
    t.name: t
    for t in (
        PaperTable(
            "lobachev-gauss",
            "skeleton",
            {"skeleton": "farm"},
            "Gauss elimination, Eden on 8 cores (Lobachev and Loogen, Table 1)",
            _skeleton_rows("lobachev_gauss_table1.csv"),
        ),
        PaperTable(
            "lobachev-rabin-miller",
            "skeleton",
            {"skeleton": "iteration"},
            "Rabin-Miller primality test (Lobachev and Loogen, Table 4)",
            _skeleton_rows("lobachev_rabin_miller_table4.csv"),
        ),
        PaperTable(
            "lobachev-lbm",
            "skeleton",
            {"skeleton": "parmap"},
            "Lattice-Boltzmann on Blue Gene/P, one size (Lobachev and Loogen, Table 2)",
            _skeleton_rows("lobachev_lbm_table2.csv"),
        ),
        PaperTable(
            "saez-traces",
            "hdc",
            {},
            "connected components, component traces (Saez and Printista, Tables 1 and 2)",
            _hdc_rows,
        ),
        PaperTable(
            "janovic-t3e",
            "isoefficiency",
            {},
            "Cray T3E communication constants (Janovic and Hanuliak, section 5)",
            _constant_rows("janovic_isoefficiency.csv"),
        ),
    )
}


def model_names() -> list[str]:
    return list(FACTORIES)


def make(name: str, **params: Any) -> PerformanceModel:
    """A fresh model by name, with its parameters (one line naming the choices else)."""
    if name not in FACTORIES:
        raise UserError(f"unknown model {name!r}; choose from {', '.join(FACTORIES)}")
    try:
        return FACTORIES[name](**params)
    except TypeError as exc:
        raise UserError(f"model {name}: {exc}") from None


def card(name: str) -> ModelCard:
    return make(name).describe()


def paper_table(name: str) -> PaperTable:
    if name not in PAPER_TABLES:
        raise UserError(f"unknown paper table {name!r}; choose from {', '.join(PAPER_TABLES)}")
    return PAPER_TABLES[name]


def fitted_on_paper(name: str) -> PerformanceModel:
    """The model a paper table belongs to, fitted on it."""
    table = paper_table(name)
    return make(table.model, **table.params).fit(table.rows())


def card_for_outcome(model: str) -> ModelCard | None:
    """The card of the model an outcome names (a loop's ``faithful`` or ``extended``
    power law; ``scale``'s skeleton), None for a name no model has."""
    key = {"faithful": "powerlaw-faithful", "extended": "powerlaw-extended"}.get(model, model)
    key = "powerlaw-faithful" if key in ("powerlaw", "seed004") else key
    return card(key) if key in FACTORIES else None

"""Stand-alone models of parallel structure, one level above a single loop.

They need no C program: each is fitted from measurements or a paper's table and
predicts from it. The program pipeline in ``autotune.structure`` uses them.

* ``moments``, ``gld``, ``quadrature``, ``composition``: two concurrent tasks
  (OpenMP ``sections``, task pairs) as Y = max(X1, X2) of stochastic times
  (seed 002). Entry point: ``compose(Moments(...), Moments(...))``.
* ``hdc``, ``traces``: recursive divide and conquer on a hypercube of P
  processors (seed 003). Entry point: ``HypercubeDC().fit(traces).predict_one(...)``.
* ``isoefficiency``: how fast the work must grow with p to hold efficiency
  (seed 001), analytic (block decomposition) and empirical (T(n), Abar(n, p)).
* ``textio``: the small text inputs of their commands, with one-line errors.

Imports are lazy so that ``import autotune.structmodels`` stays cheap.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "Moments": "moments",
    "GeneralizedLambda": "gld",
    "compose": "composition",
    "Composition": "composition",
    "exact_max_moment": "composition",
    "paper_max_moment": "composition",
    "HypercubeDC": "hdc",
    "HDCPrediction": "hdc",
    "Traces": "hdc",
    "paper_traces": "traces",
    "read_traces": "traces",
    "EmpiricalIsoefficiency": "isoefficiency",
    "block_isoefficiency": "isoefficiency",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(f"{__name__}.{_EXPORTS[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

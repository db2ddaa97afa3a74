"""Fitted power-law coefficients, evaluated with numpy alone.

Ranking is the cheap step before compiling: ``rank``, the build hook's rank mode and
``tune``'s ranking only evaluate stored coefficients, so they load them here and never
import scikit-learn (about a second of start-up). Fitting, in ``powerlaw``, is
scikit-learn's estimator API; both share the design (``design``) and the document
format (``FORMAT``), so a fitted estimator and the coefficients read back predict alike.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from autotune.models.features import INDICATOR_FEATURES

FORMAT = "autotune-powerlaw/1"
MODEL_NAMES = ("faithful", "extended")
ALIASES = {"powerlaw": "faithful", "seed004": "faithful"}
ZERO_FLOOR = 1e-12
# the fields of a fitted model document; any other key is metadata (label, machine, ...)
DOC_KEYS = frozenset(
    {
        "format",
        "model",
        "target",
        "params",
        "feature_names",
        "coef",
        "intercept",
        "scale",
        "n_samples",
        "loss_used",
    }
)


def design(X: Any, names: list[str], owner: str = "the model") -> np.ndarray:
    """The regression's design: log of every feature, 0/1 indicators as they are."""
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[1] != len(names):
        raise ValueError(f"{owner} expects {len(names)} columns {names}, got shape {X.shape}")
    Z = X.copy()
    log_cols = [i for i, n in enumerate(names) if n not in INDICATOR_FEATURES]
    sub = Z[:, log_cols]
    if not np.all(np.isfinite(sub)) or np.any(sub < 0):
        raise ValueError("Negative values in data: power-law features must be finite and > 0")
    # a quantity measured as exactly zero is below resolution: floored (our own
    # features never are zero; generic positive data may contain zeros)
    Z[:, log_cols] = np.log(np.maximum(sub, ZERO_FLOOR))
    return Z


@dataclass
class FittedPowerLaw:
    """One fitted model read from its document: log(Y) = intercept + coef . design(X)."""

    name: str  # faithful | extended
    target: str  # wall | cpu
    feature_names_: list[str]
    coef_: np.ndarray
    intercept_: float
    document: dict  # the document it was read from (``to_dict`` gives it back)
    metadata_: dict = field(default_factory=dict)

    def predict_log(self, X: Any) -> np.ndarray:
        return self.intercept_ + design(X, self.feature_names_, self.name) @ self.coef_

    def predict(self, X: Any) -> np.ndarray:
        """Predicted time in seconds of the model's ``target``."""
        return np.exp(self.predict_log(X))

    def coefficients(self) -> dict[str, float]:
        """Exponent (or log-factor, for indicators) per feature name."""
        return dict(zip(self.feature_names_, map(float, self.coef_), strict=True))

    def to_dict(self) -> dict[str, Any]:
        return {**self.document, **self.metadata_}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, sort_keys=True)


def fitted_from_dict(data: str | dict[str, Any]) -> FittedPowerLaw:
    """Coefficients from a model document (``to_json()`` of a fitted estimator)."""
    d = json.loads(data) if isinstance(data, str) else dict(data)
    if d.get("format") != FORMAT:
        raise ValueError(f"not a power-law model document (format {d.get('format')!r})")
    if d.get("model") not in MODEL_NAMES:
        raise ValueError(f"unknown model {d.get('model')!r}")
    names = list(d["feature_names"])
    coef = np.asarray(d["coef"], dtype=float)
    if len(coef) != len(names):
        raise ValueError("coef and feature_names differ in length")
    core = {k: d[k] for k in DOC_KEYS if k in d}
    meta = {k: v for k, v in d.items() if k not in DOC_KEYS}
    return FittedPowerLaw(d["model"], d["target"], names, coef, float(d["intercept"]), core, meta)

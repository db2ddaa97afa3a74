"""The power-law loop model behind the common model shape (``autotune.modelshape``).

``PowerLawLoopModel`` fits seed 004's power law (``faithful``) or its extension
(``extended``) from rows of feature values and measured times, or takes the shipped
coefficients (``shipped``), and predicts one variant's time with the spread of the
fit's log residuals as its interval.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from autotune.errors import UserError
from autotune.models.features import EXTENDED_FEATURES, FAITHFUL_FEATURES
from autotune.models.fitted import fitted_from_dict
from autotune.modelshape import Estimate, ModelCard, Row, number, require_columns

FEATURES = {"faithful": FAITHFUL_FEATURES, "extended": EXTENDED_FEATURES}


class PowerLawLoopModel:
    """log(time) = log c + sum a_i log X_i; ``variant`` "faithful" or "extended",
    ``target`` "wall" or "cpu" (what the times are)."""

    def __init__(self, variant: str = "extended", target: str = "wall") -> None:
        self.variant = variant
        self.target = target

    def _features(self) -> tuple[str, ...]:
        if self.variant not in FEATURES:
            raise UserError(f"power-law model: variant must be one of {sorted(FEATURES)}")
        return FEATURES[self.variant]

    def fit(self, rows: Sequence[Row]) -> PowerLawLoopModel:
        """Rows of the variant's features (``describe().fit_columns``) and ``time`` in
        seconds; scikit-learn fits the log-linear law (Huber loss where rows allow)."""
        from autotune.models.powerlaw import make_model

        names = self._features()
        require_columns(rows, (*names, "time"), "power-law model")
        X = [[number(r, f, "power-law model", i) for f in names] for i, r in enumerate(rows, 1)]
        y = [number(r, "time", "power-law model", i) for i, r in enumerate(rows, 1)]
        try:
            est = make_model(self.variant, target=self.target).fit(X, y)
        except ValueError as exc:
            raise UserError(f"power-law model: {exc}") from None
        return self._adopt(est.to_dict())

    def shipped(self, path: str | None = None) -> PowerLawLoopModel:
        """The coefficients autotune ships (or a coefficients file): fitted without rows."""
        from autotune.models.defaults import load_model

        return self._adopt(load_model(self.variant, path, self.target).to_dict())

    def _adopt(self, document: dict[str, Any]) -> PowerLawLoopModel:
        self.fitted_ = fitted_from_dict(document)
        scale = float(document.get("scale", float("nan")))
        self.scale_ = scale if math.isfinite(scale) and scale > 0 else None
        self.n_samples_ = int(document.get("n_samples", 0))
        return self

    def predict(self, at: Mapping[str, float]) -> Estimate:
        """The time at the features ``at``; interval: one residual scale of the log fit
        either side (a factor, so the interval is not symmetric)."""
        if not hasattr(self, "fitted_"):
            raise UserError("power-law model: fit it (or take the shipped one) first")
        names = self.fitted_.feature_names_
        row = [[number(at, f, "power-law model") for f in names]]
        try:
            log_t = float(self.fitted_.predict_log(row)[0])
        except ValueError as exc:
            raise UserError(f"power-law model: {exc}") from None
        value = math.exp(log_t)
        details = {"coefficients": self.fitted_.coefficients(), "n_samples": self.n_samples_}
        if self.scale_ is None:
            return Estimate(value, "s", None, None, "the fit kept no residual scale", details)
        low, high = math.exp(log_t - self.scale_), math.exp(log_t + self.scale_)
        basis = f"one residual scale of the log fit ({self.scale_:.3f}, {self.n_samples_} runs)"
        return Estimate(value, "s", low, high, basis, details)

    def describe(self) -> ModelCard:
        return ModelCard(
            name=f"powerlaw-{self.variant}",
            title=f"power-law loop model ({self.variant})",
            source=(
                "power-law model of the execution time of parallel program loops "
                "(Przeglad Elektrotechniczny 90(2), 2014)"
            ),
            predicts=f"the loop's {self.target} time in seconds",
            fit_columns=(*self._features(), "time"),
            query=self._features(),
            notes="ranks a loop's variants before compiling; shipped coefficients: 'shipped'",
        )

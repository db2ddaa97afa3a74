"""Power-law execution-time models of OpenMP loop variants (seed 004 and an extension).

    Y = c * X1^a1 * X2^a2 * X3^a3 * X4^a4            (PowerLawModel, faithful)
    Y = c * prod Xi^ai * prod exp(g_j * D_j)         (ExtendedPowerLawModel)

fitted as a linear model of log(Y) on log(Xi) (and raw 0/1 indicators D_j)
*with* an intercept log c: without it the ranking quality collapses.

Variables (built by ``autotune.models.features``, defined in ``docs/model.md``):

- X1 ``x1_cache`` = (sL1*aL1 + sL2*aL2) / Df: per-thread L1d and L2 capacity in
  bytes times set associativity, over Df, the distinct bytes (cache lines x
  line size) the busiest thread touches in one run of the loop.
- X2 ``x2_ops_per_thread`` = executions * weighted ops of one run / threads.
- X3 ``x3_max_chunk_iters`` = most iterations in one chunk any thread receives
  (static: ceil(n/p); static,c and dynamic,c: c; dynamic: 1; guided,c: the first
  chunk max(ceil(n/p), c)).
- X4 ``x4_threads`` = threads.
- extended only: ``imbalance`` (simulated makespan over the balanced time on
  min(threads, cores) cores), ``dispatch_overhead`` (from the number of chunk dispatches),
  ``oversubscription`` (max(1, threads/cores)), ``sched_dynamic`` and
  ``sched_guided`` indicators (exp(g) is the schedule kind's factor).

Loss: ``huber`` (default) fits the log-linear model with scikit-learn's
HuberRegressor, because a timing disturbed by another process is a large
one-sided outlier in log space and least squares lets one such run pull every
exponent; ``ols`` is plain least squares, also used when there are fewer than
3 samples per parameter (``loss_used_`` says which ran).

The models are scikit-learn regressors (``BaseEstimator`` + ``RegressorMixin``,
positive inputs and targets declared in their tags): ``clone``,
``cross_val_score`` and ``GridSearchCV`` work, and ``check_estimator`` passes
(``tests/test_model_powerlaw.py`` lists the checks that cannot apply). Given a
matrix with as many columns as the model's features, the columns are those
features (indicators are not logged); any other width is a plain power law on
every column (``x0``, ``x1``, ...).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from autotune.models.features import (
    EXTENDED_FEATURES,
    FAITHFUL_FEATURES,
    LOOP_LEVEL_FEATURES,
)
from autotune.models.fitted import ALIASES, DOC_KEYS, FORMAT, design

TARGETS = ("wall", "cpu")
# Huber's joint fit of coefficients and scale degenerates (scale -> 0, a subset
# interpolated, the rest called outliers) with few samples per parameter; below
# this many samples per parameter least squares is used instead.
HUBER_MIN_SAMPLES_PER_PARAM = 3
LOSSES = ("huber", "ols")
FIT_MODES = ("pooled", "within")


class _LogLinearModel(RegressorMixin, BaseEstimator):
    """log(Y) = intercept + sum coef_i * f_i(X_i), f = log (or identity for 0/1 indicators)."""

    name = "base"
    default_features: tuple[str, ...] = ()
    default_fit_mode = "pooled"

    def __init__(
        self,
        target: str = "wall",
        loss: str = "huber",
        epsilon: float = 1.35,
        alpha: float = 1e-4,
        features: tuple[str, ...] | list[str] | None = None,
        fit_mode: str | None = None,
    ) -> None:
        self.target = target
        self.loss = loss
        self.epsilon = epsilon
        self.alpha = alpha
        self.features = features
        self.fit_mode = fit_mode

    def __sklearn_tags__(self):  # sklearn.utils.Tags
        tags = super().__sklearn_tags__()
        tags.input_tags.positive_only = True  # a power law of positive quantities
        tags.target_tags.positive_only = True  # times
        return tags

    # -- model --
    def _names(self, width: int | None = None) -> list[str]:
        """Column names: ``features``, else the defaults, else (another width) x0, x1, ..."""
        if self.features is not None:
            return list(self.features)
        if width is None or width == len(self.default_features):
            return list(self.default_features)
        return [f"x{i}" for i in range(width)]

    def _check_params(self) -> None:
        if self.target not in TARGETS:
            raise ValueError(f"target must be one of {TARGETS}, not {self.target!r}")
        if self.loss not in LOSSES:
            raise ValueError(f"loss must be one of {LOSSES}, not {self.loss!r}")
        if self._fit_mode() not in FIT_MODES:
            raise ValueError(f"fit_mode must be one of {FIT_MODES}, not {self.fit_mode!r}")

    def _fit_mode(self) -> str:
        return self.fit_mode or self.default_fit_mode

    def _design(self, X: Any, names: list[str]) -> np.ndarray:
        return design(X, names, type(self).__name__)

    # Over 60 lines: scikit-learn's fit: validation, then the fit and learned attributes.
    def fit(self, X: Any, y: Any, sample_weight: Any = None, groups: Any = None) -> _LogLinearModel:
        """Fit on features X (n_samples x n_features) and times y (seconds, > 0).

        ``groups`` names the loop of each sample; with ``fit_mode="within"`` the
        variant exponents are then estimated within loops (see ``_fit_within``).
        """
        self._check_params()
        X, y = validate_data(self, X, y, y_numeric=True)
        names = self._names(X.shape[1])
        Z = self._design(X, names)
        y = np.asarray(y, dtype=float).ravel()
        if len(y) < 2:
            raise ValueError(f"n_samples = {len(y)}: need at least 2 times to fit")
        if np.any(~np.isfinite(y)) or np.any(y <= 0):
            raise ValueError("times must be finite and positive")
        if sample_weight is not None:
            sample_weight = np.asarray(sample_weight, dtype=float).ravel()
            if len(sample_weight) != len(y) or np.any(sample_weight < 0):
                raise ValueError("sample_weight must be one non-negative weight per sample")
            if not sample_weight.sum() > 0:
                raise ValueError("sample weights are all zero: nothing to fit")
        t = np.log(y)
        self.fit_mode_ = "pooled"
        if groups is not None and self._fit_mode() == "within":
            groups = np.asarray(groups)
            if len(groups) != len(y):
                raise ValueError(f"{len(y)} times but {len(groups)} group labels")
            if len(np.unique(groups)) >= 2:
                return self._fit_within(Z, t, groups, names, sample_weight)
        # Standardise columns (weighted, so a weight of 2 is a repeated row):
        # HuberRegressor's solver and the tiny ridge term behave the same whatever
        # the units; constant columns get coef 0.
        w = sample_weight
        mean = np.average(Z, axis=0, weights=w)
        std = np.sqrt(np.average((Z - mean) ** 2, axis=0, weights=w))
        varying = std > 1e-12
        Zs = np.zeros_like(Z)
        Zs[:, varying] = (Z[:, varying] - mean[varying]) / std[varying]
        n_eff = len(y) if w is None else float(w.sum())
        self.loss_used_ = "ols"
        if self.loss == "huber" and n_eff >= HUBER_MIN_SAMPLES_PER_PARAM * (Z.shape[1] + 1):
            from sklearn.linear_model import HuberRegressor

            reg = HuberRegressor(epsilon=self.epsilon, alpha=self.alpha, max_iter=2000)
            reg.fit(Zs, t, sample_weight=w)
            if reg.scale_ > 1e-9:  # else Huber interpolated a subset: not a fit
                beta, b0 = reg.coef_, float(reg.intercept_)
                self.scale_ = float(reg.scale_)
                self.loss_used_ = "huber"
        if self.loss_used_ == "ols":
            beta, b0 = _ridge(Zs, t, self.alpha, w)
            resid = t - (b0 + Zs @ beta)
            self.scale_ = float(np.sqrt(np.average(resid**2, weights=w)))
        coef = np.zeros(Z.shape[1])
        coef[varying] = beta[varying] / std[varying]
        self.coef_ = coef
        self.intercept_ = b0 - float(np.sum(coef * mean))
        self.feature_names_ = names
        self.n_features_in_ = len(names)
        self.n_samples_ = len(y)
        return self

    # Over 60 lines: the within-loop least squares with its weights, one block per term.
    def _fit_within(
        self,
        Z: np.ndarray,
        t: np.ndarray,
        groups: np.ndarray,
        names: list[str],
        sample_weight: Any = None,
    ) -> _LogLinearModel:
        """Fixed-effects fit: variant exponents from within-loop variation only.

        Ranking compares variants of one loop, but a pooled fit spends its
        exponents on the differences between loops (a loop with 100x the work
        takes 100x longer). Stage 1 demeans log time and log features within
        each loop and fits the variant features on that; stage 2 explains the
        loops' remaining levels by the loop-level features (``loop_work``,
        ``loop_bytes``), so absolute predictions for an unseen loop still work.
        The result is one power law, stored and used like any other.
        """
        loop_cols = [i for i, n in enumerate(names) if n in LOOP_LEVEL_FEATURES]
        var_cols = [i for i in range(len(names)) if i not in loop_cols]
        labels, inverse = np.unique(groups, return_inverse=True)
        k = len(labels)
        w = np.ones(len(t)) if sample_weight is None else np.asarray(sample_weight, float)
        counts = np.bincount(inverse, weights=w, minlength=k)  # weight per loop

        def group_mean(a: np.ndarray) -> np.ndarray:
            """Weighted mean within each loop."""
            wa = a * w.reshape((-1,) + (1,) * (a.ndim - 1))
            out = np.zeros((k,) + a.shape[1:])
            np.add.at(out, inverse, wa)
            return out / counts.reshape((-1,) + (1,) * (a.ndim - 1))

        Zv = Z[:, var_cols]
        Zd = Zv - group_mean(Zv)[inverse]
        td = t - group_mean(t)[inverse]
        std = Zd.std(axis=0)
        varying = std > 1e-12
        Zs = np.zeros_like(Zd)
        Zs[:, varying] = Zd[:, varying] / std[varying]
        self.loss_used_ = "ols"
        beta = None
        if self.loss == "huber" and len(t) >= HUBER_MIN_SAMPLES_PER_PARAM * (len(var_cols) + k):
            from sklearn.linear_model import HuberRegressor

            reg = HuberRegressor(
                epsilon=self.epsilon, alpha=self.alpha, max_iter=2000, fit_intercept=False
            )
            reg.fit(Zs, td, sample_weight=w)
            if reg.scale_ > 1e-9:
                beta, self.scale_, self.loss_used_ = reg.coef_, float(reg.scale_), "huber"
        if beta is None:
            beta = _ridge_no_intercept(Zs, td, self.alpha, w)
            self.scale_ = float(np.sqrt(np.average((td - Zs @ beta) ** 2, weights=w)))
        coef = np.zeros(Z.shape[1])
        coef[var_cols] = np.where(varying, beta / np.where(varying, std, 1.0), 0.0)
        level = group_mean(t - Z @ coef)  # each loop's level once variant effects are out
        if loop_cols and k >= len(loop_cols) + 2:
            G = group_mean(Z[:, loop_cols])
            b, b0 = _ridge(G, level, self.alpha, counts)
            coef[loop_cols] = b
        else:
            b0 = float(np.average(level, weights=counts))
        self.coef_ = coef
        self.intercept_ = float(b0)
        self.feature_names_ = names
        self.n_features_in_ = len(names)
        self.n_samples_ = len(t)
        self.n_groups_ = k
        self.fit_mode_ = "within"
        return self

    def predict_log(self, X: Any) -> np.ndarray:
        check_is_fitted(self, "coef_")
        X = validate_data(self, X, reset=False)
        Z = self._design(X, self.feature_names_)
        return self.intercept_ + Z @ self.coef_

    def predict(self, X: Any) -> np.ndarray:
        """Predicted time in seconds of the model's ``target`` (wall or CPU time)."""
        return np.exp(self.predict_log(X))

    def score(self, X: Any, y: Any) -> float:
        """R^2 of log times (times span decades; R^2 on raw seconds hides small loops)."""
        t = np.log(np.asarray(y, dtype=float))
        r = t - self.predict_log(X)
        ss = float(np.sum((t - t.mean()) ** 2))
        return 1.0 - float(np.sum(r**2)) / ss if ss > 0 else 0.0

    def coefficients(self) -> dict[str, float]:
        """Exponent (or log-factor, for indicators) per feature name."""
        return dict(zip(self.feature_names_, map(float, self.coef_), strict=True))

    # -- persistence --
    def to_dict(
        self, machine: dict | None = None, label: str | None = None, **extra: Any
    ) -> dict[str, Any]:
        if not hasattr(self, "coef_"):
            raise ValueError("cannot serialise an unfitted model")
        meta = dict(getattr(self, "metadata_", {}))
        if machine is not None:
            meta["machine"] = machine
        if label is not None:
            meta["label"] = label
        meta.update(extra)
        return {
            "format": FORMAT,
            "model": self.name,
            "target": self.target,
            "params": {k: v for k, v in self.get_params().items() if k != "target"},
            "feature_names": list(self.feature_names_),
            "coef": [float(c) for c in self.coef_],
            "intercept": float(self.intercept_),
            "scale": float(getattr(self, "scale_", float("nan"))),
            "n_samples": int(getattr(self, "n_samples_", 0)),
            "loss_used": getattr(self, "loss_used_", self.loss),
            **meta,
        }

    def to_json(self, machine: dict | None = None, label: str | None = None, **extra: Any) -> str:
        return json.dumps(self.to_dict(machine, label, **extra), indent=2, sort_keys=True)

    @classmethod
    def from_json(cls, data: str | dict[str, Any]) -> _LogLinearModel:
        """Rebuild a fitted model from ``to_json()`` output (string or parsed dict)."""
        d = json.loads(data) if isinstance(data, str) else dict(data)
        if d.get("format") != FORMAT:
            raise ValueError(f"not a power-law model document (format {d.get('format')!r})")
        klass = MODELS.get(d.get("model", ""))
        if klass is None:
            raise ValueError(f"unknown model {d.get('model')!r}")
        if cls is not _LogLinearModel and not issubclass(klass, cls):
            raise ValueError(f"document holds model {d['model']!r}, not {cls.name!r}")
        params = dict(d.get("params", {}))
        if params.get("features") is not None:
            params["features"] = tuple(params["features"])
        model = klass(target=d["target"], **params)
        model.feature_names_ = list(d["feature_names"])
        model.coef_ = np.asarray(d["coef"], dtype=float)
        model.intercept_ = float(d["intercept"])
        model.scale_ = float(d.get("scale", float("nan")))
        model.n_samples_ = int(d.get("n_samples", 0))
        model.n_features_in_ = len(model.feature_names_)
        model.loss_used_ = str(d.get("loss_used", model.loss))
        if len(model.coef_) != len(model.feature_names_):
            raise ValueError("coef and feature_names differ in length")
        model.metadata_ = {k: v for k, v in d.items() if k not in DOC_KEYS}
        return model


def _ridge_no_intercept(
    Z: np.ndarray, t: np.ndarray, alpha: float, w: np.ndarray | None = None
) -> np.ndarray:
    w = np.ones(len(t)) if w is None else w
    A = Z.T @ (Z * w[:, None]) + alpha * np.eye(Z.shape[1])
    return np.linalg.solve(A, Z.T @ (t * w))


def _ridge(
    Z: np.ndarray, t: np.ndarray, alpha: float, w: np.ndarray | None
) -> tuple[np.ndarray, float]:
    """Least squares with intercept (unpenalised) and a tiny ridge term on coefficients."""
    n, k = Z.shape
    sw = np.ones(n) if w is None else w
    A = np.hstack([np.ones((n, 1)), Z]) * np.sqrt(sw)[:, None]
    b = t * np.sqrt(sw)
    if alpha > 0:
        pen = np.hstack([np.zeros((k, 1)), np.sqrt(alpha) * np.eye(k)])
        A = np.vstack([A, pen])
        b = np.concatenate([b, np.zeros(k)])
    sol, *_ = np.linalg.lstsq(A, b, rcond=None)
    return sol[1:], float(sol[0])


class PowerLawModel(_LogLinearModel):
    """Seed 004's model: Y = c * X1^a1 * X2^a2 * X3^a3 * X4^a4 (features FAITHFUL_FEATURES).

    ``target`` names what y is: "wall" (default, the loop's wall time summed
    over its executions) or "cpu" (seed 004's total CPU time of all threads).
    """

    name = "faithful"
    default_features = FAITHFUL_FEATURES
    default_fit_mode = "pooled"  # the seed's regression over all measurements


class ExtendedPowerLawModel(_LogLinearModel):
    """Seed 004's variables plus load imbalance, dispatch overhead, oversubscription
    and schedule-kind factors (features EXTENDED_FEATURES); same log-linear fit."""

    name = "extended"
    default_features = EXTENDED_FEATURES
    default_fit_mode = "within"  # variant exponents within loops, loop size across them


MODELS: dict[str, type[_LogLinearModel]] = {
    "faithful": PowerLawModel,
    "extended": ExtendedPowerLawModel,
}


def make_model(name: str, **params: Any) -> _LogLinearModel:
    """A fresh (unfitted) model by name: ``faithful`` (alias ``powerlaw``) or ``extended``."""
    key = ALIASES.get(name, name)
    if key not in MODELS:
        raise ValueError(f"unknown model {name!r}; choose from {sorted(MODELS)}")
    return MODELS[key](**params)

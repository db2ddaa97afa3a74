"""The paper's one-dimensional estimators, as scikit-learn style regressors.

Each estimates a time (or a penalty) as a function of one variable, n or p,
from a handful of measurements and is then *extrapolated*; they differ in how
they trade exact interpolation for trend (section 3 of Lobachev and Loogen):

* ``spline``  - R's spline(), method fmm: interpolates every point (fmm.py);
* ``loess``   - R's loess (span 0.75, degree 2) via scikit-misc, which wraps
  Cleveland's code; surface="direct" so that it can extrapolate;
* ``lmpoly``  - R's lm(y ~ poly(x, 3)): least squares on polynomials orthogonal
  over the data points (degree settable);
* ``lm``      - a straight line.

``mean`` is not an estimator but a combination of two of them; it lives in
selection.py. Too few points raise ``EstimatorError`` (a UserError) with the
minimum, never a Fortran message.
"""

from __future__ import annotations

import math

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from autotune.errors import UserError
from autotune.skeletons.fmm import fmm_spline

# CLI name -> name the paper (and R) uses in its tables.
PAPER_NAMES = {"spline": "spline", "loess": "loess", "lmpoly": "lm(poly)", "lm": "lm"}
METHOD_NAMES = tuple(PAPER_NAMES)
# Ours, offered beside the paper's where real measurements are extrapolated: a
# run time that grows as a power of the size (O(n^k) work) is a straight line
# in log-log space, which neither a cubic nor a line in n extrapolates well.
EXTRA_NAMES = {"powerlaw": "power law"}
LABELS = {**PAPER_NAMES, **EXTRA_NAMES}
ALL_METHODS = tuple(LABELS)


class EstimatorError(UserError, ValueError):
    """An estimator cannot be fitted on these points (usually: too few)."""


class _SeriesEstimator(RegressorMixin, BaseEstimator):
    """A regressor of one series y(x): X is one column (n_samples x 1).

    Input is validated the scikit-learn way (2-D, finite, dense, one column);
    each method then checks its own minimum of points.
    """

    def _series(self, X: object, y: object, need: int, what: str) -> tuple[np.ndarray, np.ndarray]:
        """Sorted (x, y) for fitting; EstimatorError when the points cannot be fitted."""
        X, yy = validate_data(self, X, y, y_numeric=True)
        if len(X) < need:
            raise EstimatorError(
                f"{what} needs at least {need} points, got {len(X)} (n_samples = {len(X)})"
            )
        if X.shape[1] != 1:
            raise ValueError(
                f"{what} extrapolates one series y(x): X must have 1 feature, got {X.shape[1]}"
            )
        x = X[:, 0].astype(float)
        yy = np.asarray(yy, dtype=float).ravel()
        order = np.argsort(x, kind="stable")
        x, yy = x[order], yy[order]
        if len(np.unique(x)) != len(x):
            raise EstimatorError(f"{what}: repeated x values (average repeated measurements first)")
        return x, yy

    def _at(self, X: object) -> np.ndarray:
        """The x values to predict at, checked against the fit."""
        check_is_fitted(self)
        return validate_data(self, X, reset=False)[:, 0].astype(float)


def column(x: object) -> np.ndarray:
    """A vector of x values as the one-column matrix the estimators take."""
    return np.asarray(x, dtype=float).reshape(-1, 1)


class SplineEstimator(_SeriesEstimator):
    """R's ``spline(x, y, method="fmm", xout=...)``: interpolation, cubic extrapolation."""

    def fit(self, X: object, y: object) -> SplineEstimator:
        x, yy = self._series(X, y, 2, "spline")
        self.spline_ = fmm_spline(x, yy)
        return self

    def predict(self, X: object) -> np.ndarray:
        x = self._at(X)
        return self.spline_(x)


class LoessEstimator(_SeriesEstimator):
    """R's ``loess(y ~ x, span, degree)`` predicted with ``surface="direct"``.

    x is mapped affinely onto [0, 1] first: local polynomial fits are invariant
    under that map, and it keeps the local normal equations well conditioned
    when x is a processor count of 10^5. statistics="exact" only changes the
    fit's summary statistics (the "approximate" path aborts on small samples
    with "trL > n"); the fitted surface is the same.
    """

    def __init__(self, span: float = 0.75, degree: int = 2) -> None:
        self.span = span
        self.degree = degree

    def min_points(self) -> int:
        # The farthest of the q = floor(n * span) neighbours gets tricube weight
        # zero, so the local fit needs q - 1 >= degree + 1 points with weight.
        n = self.degree + 2
        while math.floor(n * self.span + 1e-9) < self.degree + 2:
            n += 1
        return n

    def fit(self, X: object, y: object) -> LoessEstimator:
        from skmisc.loess import loess  # imported lazily: compiled extension

        need = self.min_points()
        x, yy = self._series(X, y, need, f"loess (span {self.span}, degree {self.degree})")
        self.x_min_ = float(x[0])
        self.x_scale_ = float(x[-1] - x[0])
        model = loess(
            (x - self.x_min_) / self.x_scale_,
            yy,
            span=self.span,
            degree=self.degree,
            surface="direct",
            statistics="exact",
            family="gaussian",
        )
        try:
            model.fit()
        except ValueError as exc:  # the Fortran code reports singular local fits this way
            msg = exc.args[0].decode() if isinstance(exc.args[0], bytes) else str(exc)
            raise EstimatorError(f"loess could not fit {len(x)} points: {msg}") from None
        self.model_ = model
        return self

    def predict(self, X: object) -> np.ndarray:
        u = (self._at(X) - self.x_min_) / self.x_scale_
        return np.asarray(self.model_.predict(u).values, dtype=float)


class LmPolyEstimator(_SeriesEstimator):
    """Least squares on orthogonal polynomials, R's ``lm(y ~ poly(x, degree))``.

    The basis is built by the three-term (Stieltjes) recurrence so that it is
    orthogonal over the data points, as R's poly() is; the fitted curve equals a
    raw polynomial least-squares fit but stays well conditioned for large x.
    """

    def __init__(self, degree: int = 3) -> None:
        self.degree = degree

    def fit(self, X: object, y: object) -> LmPolyEstimator:
        if self.degree < 1:
            raise ValueError("degree must be at least 1")
        label = "lm" if self.degree == 1 else f"lm(poly) of degree {self.degree}"
        x, yy = self._series(X, y, self.degree + 1, label)
        self.center_ = float(x.mean())
        self.scale_ = float(np.abs(x - self.center_).max()) or 1.0
        t = (x - self.center_) / self.scale_
        alphas: list[float] = []
        norms: list[float] = []
        basis = [np.ones_like(t)]
        norms.append(float(basis[0] @ basis[0]))
        for j in range(self.degree):
            pj = basis[j]
            alpha = float((t * pj) @ pj) / norms[j]
            alphas.append(alpha)
            nxt = (t - alpha) * pj
            if j > 0:
                nxt -= (norms[j] / norms[j - 1]) * basis[j - 1]
            basis.append(nxt)
            norms.append(float(nxt @ nxt))
        self.alphas_ = np.array(alphas)
        self.norms_ = np.array(norms)
        self.coef_ = np.array([float(yy @ b) / nb for b, nb in zip(basis, norms, strict=True)])
        return self

    def _basis(self, t: np.ndarray) -> list[np.ndarray]:
        basis = [np.ones_like(t)]
        for j in range(self.degree):
            nxt = (t - self.alphas_[j]) * basis[j]
            if j > 0:
                nxt -= (self.norms_[j] / self.norms_[j - 1]) * basis[j - 1]
            basis.append(nxt)
        return basis

    def predict(self, X: object) -> np.ndarray:
        t = (self._at(X) - self.center_) / self.scale_
        return sum(c * b for c, b in zip(self.coef_, self._basis(t), strict=True))


class LinearEstimator(LmPolyEstimator):
    """R's ``lm(y ~ x)``: the straight line the paper finds least apt."""

    def __init__(self, degree: int = 1) -> None:
        super().__init__(degree=degree)


class PowerLawEstimator(_SeriesEstimator):
    """y = c * x ** k by least squares on logs (positive x and y only)."""

    def fit(self, X: object, y: object) -> PowerLawEstimator:
        x, yy = self._series(X, y, 2, "power law")
        if np.any(x <= 0) or np.any(yy <= 0):
            raise EstimatorError("power law needs positive x and y")
        self.k_, self.log_c_ = np.polyfit(np.log(x), np.log(yy), 1)
        return self

    def predict(self, X: object) -> np.ndarray:
        x = self._at(X)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.exp(self.log_c_ + self.k_ * np.log(x))


def make_estimator(name: str, degree: int = 3) -> BaseEstimator:
    """A fresh estimator by CLI name (``lmpoly`` takes ``degree``)."""
    if name == "spline":
        return SplineEstimator()
    if name == "loess":
        return LoessEstimator()
    if name == "lmpoly":
        return LmPolyEstimator(degree=degree)
    if name == "lm":
        return LinearEstimator()
    if name == "powerlaw":
        return PowerLawEstimator()
    raise UserError(f"unknown method {name!r}; choose from {', '.join(ALL_METHODS)}")

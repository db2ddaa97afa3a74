"""Cubic spline interpolation with Forsythe-Malcolm-Moler (fmm) end conditions.

This is the default method of R's ``spline()``, which Lobachev and Loogen used
for their ``spline`` estimates. scipy's ``CubicSpline`` uses other end
conditions (not-a-knot, natural, clamped) and gives different curves, and above
all different *extrapolations*, on five or more points, so we derive fmm here.

Mathematics (written from the definition, second-derivative form):

* unknowns M_i = s''(x_i) at the m knots, h_i = x_{i+1} - x_i,
  delta_i = (y_{i+1} - y_i) / h_i;
* interior rows (continuity of s'):
  h_{i-1} M_{i-1} + 2 (h_{i-1} + h_i) M_i + h_i M_{i+1} = 6 (delta_i - delta_{i-1});
* end rows: the spline's constant third derivative on the first interval,
  (M_1 - M_0) / h_0, equals the third derivative of the cubic through the first
  four points, 6 f[x_0, x_1, x_2, x_3]; likewise at the right end with the last
  four points. With three points that cubic does not exist and the third
  derivative is set to zero (the result is the interpolating parabola); with two
  points the spline is the straight line.

Outside [x_0, x_{m-1}] the spline is evaluated with the cubic of the first or
last interval, extended: this is what R's ``spline()`` returns for ``xout``
beyond the data, and it is how the paper extrapolates with ``spline``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.linalg import solve_banded


@dataclass(frozen=True)
class FmmSpline:
    """Knots and per-interval cubic coefficients: s(u) = y_i + b_i t + c_i t^2 + d_i t^3."""

    x: np.ndarray
    y: np.ndarray
    b: np.ndarray
    c: np.ndarray
    d: np.ndarray

    def __call__(self, u: np.ndarray | float) -> np.ndarray:
        u = np.atleast_1d(np.asarray(u, dtype=float))
        # Interval index: the piece containing u, clamped so that points left of
        # the data use the first piece and points right of it use the last.
        i = np.clip(np.searchsorted(self.x, u, side="right") - 1, 0, len(self.x) - 2)
        t = u - self.x[i]
        return self.y[i] + t * (self.b[i] + t * (self.c[i] + t * self.d[i]))


def _third_divided_difference(x: np.ndarray, y: np.ndarray) -> float:
    """f[x0, x1, x2, x3] for four points (one sixth of the cubic's third derivative)."""
    d1 = np.diff(y) / np.diff(x)
    d2 = np.diff(d1) / (x[2:] - x[:-2])
    return float((d2[1] - d2[0]) / (x[3] - x[0]))


def fmm_spline(x: np.ndarray, y: np.ndarray) -> FmmSpline:
    """Fit the fmm interpolating spline. ``x`` must be strictly increasing, len >= 2."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    m = len(x)
    if m < 2 or len(y) != m:
        raise ValueError("fmm spline needs at least two points and len(x) == len(y)")
    h = np.diff(x)
    if np.any(h <= 0):
        raise ValueError("fmm spline needs strictly increasing x")
    delta = np.diff(y) / h
    if m == 2:
        zeros = np.zeros(1)
        return FmmSpline(x, y, delta.copy(), zeros, zeros.copy())

    # Banded storage for solve_banded((1, 1), ...): row 0 = super-, 1 = main, 2 = sub-diagonal.
    ab = np.zeros((3, m))
    rhs = np.zeros(m)
    ab[1, 1:-1] = 2.0 * (h[:-1] + h[1:])
    ab[0, 2:] = h[1:]  # coefficient of M_{i+1} in row i
    ab[2, :-2] = h[:-1]  # coefficient of M_{i-1} in row i
    rhs[1:-1] = 6.0 * (delta[1:] - delta[:-1])
    if m >= 4:
        third_left = 6.0 * _third_divided_difference(x[:4], y[:4])
        third_right = 6.0 * _third_divided_difference(x[-4:], y[-4:])
    else:
        third_left = third_right = 0.0
    # Row 0: M_1 - M_0 = h_0 * s'''  ;  row m-1: M_{m-1} - M_{m-2} = h_{m-2} * s'''.
    ab[1, 0], ab[0, 1], rhs[0] = -1.0, 1.0, h[0] * third_left
    ab[2, m - 2], ab[1, m - 1], rhs[m - 1] = -1.0, 1.0, h[-1] * third_right
    second = solve_banded((1, 1), ab, rhs)

    b = delta - h * (2.0 * second[:-1] + second[1:]) / 6.0
    c = second[:-1] / 2.0
    d = (second[1:] - second[:-1]) / (6.0 * h)
    return FmmSpline(x, y, b, c, d)

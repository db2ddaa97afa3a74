"""R's spline() method "fmm", checked against values derived by hand."""

from fractions import Fraction

import numpy as np
import pytest
from scipy.interpolate import CubicSpline

from autotune.skeletons.fmm import fmm_spline


def test_cubic_data_is_reproduced_exactly_including_extrapolation():
    # fmm's end conditions are exact for a cubic, so the spline IS the cubic.
    x = np.array([0.0, 0.5, 2.0, 3.0, 4.5, 7.0])
    cubic = lambda t: 2.0 - t + 0.5 * t**2 - 0.25 * t**3  # noqa: E731
    s = fmm_spline(x, cubic(x))
    u = np.array([-2.0, 0.2, 1.3, 3.7, 6.0, 9.0, 12.0])
    np.testing.assert_allclose(s(u), cubic(u), rtol=1e-12, atol=1e-9)


def test_five_point_bump_by_hand():
    # x = 0..4, y = 0,0,1,0,0, h = 1. By hand (second derivatives M_i):
    #   third divided difference of the first four points = -1/2 -> M1 - M0 = -3,
    #   of the last four = +1/2 -> M4 - M3 = 3; interior rows M_{i-1} + 4 M_i + M_{i+1}
    #   = 6 (delta_i - delta_{i-1}) = 6, -12, 6. Symmetry gives M0 = M4 = 13/3,
    #   M1 = M3 = 4/3, M2 = -11/3.
    #   Piece 0: b = -5/3, c = 13/6, d = -1/2 -> s(0.5) = -17/48, s(-1) = 13/3.
    #   Piece 1: b = 7/6, c = 2/3, d = -5/6 -> s(1.5) = 31/48.
    s = fmm_spline(np.arange(5.0), np.array([0.0, 0.0, 1.0, 0.0, 0.0]))
    expected = {
        0.5: Fraction(-17, 48),
        1.5: Fraction(31, 48),
        -1.0: Fraction(13, 3),
        5.0: Fraction(13, 3),
        3.5: Fraction(-17, 48),
        2.0: Fraction(1),
    }
    for u, v in expected.items():
        assert s(u)[0] == pytest.approx(float(v), abs=1e-12), u
    np.testing.assert_allclose(s.c * 2, [13 / 3, 4 / 3, -11 / 3, 4 / 3], atol=1e-12)


def test_differs_from_scipy_not_a_knot_on_five_points():
    # The reason fmm is implemented here: scipy's end conditions extrapolate differently.
    x, y = np.arange(5.0), np.array([0.0, 0.0, 1.0, 0.0, 0.0])
    assert abs(fmm_spline(x, y)(-1.0)[0] - float(CubicSpline(x, y)(-1.0))) > 0.5


def test_three_points_give_the_parabola_and_two_the_line():
    x = np.array([1.0, 2.0, 4.0])
    s = fmm_spline(x, x**2)
    np.testing.assert_allclose(s([0.0, 3.0, 6.0]), [0.0, 9.0, 36.0], atol=1e-12)
    line = fmm_spline(np.array([1.0, 3.0]), np.array([2.0, 6.0]))
    np.testing.assert_allclose(line([0.0, 5.0]), [0.0, 10.0])


def test_four_points_give_the_interpolating_cubic():
    x = np.array([0.0, 1.0, 3.0, 4.0])
    y = np.array([1.0, -1.0, 2.0, 0.0])
    coef = np.polyfit(x, y, 3)  # exact: 4 points, degree 3
    s = fmm_spline(x, y)
    u = np.array([-1.0, 2.0, 5.0])
    np.testing.assert_allclose(s(u), np.polyval(coef, u), rtol=1e-10)


def test_rejects_unsorted_or_single_points():
    with pytest.raises(ValueError):
        fmm_spline(np.array([0.0, 2.0, 1.0]), np.zeros(3))
    with pytest.raises(ValueError):
        fmm_spline(np.array([1.0]), np.array([1.0]))

"""Section 3's automatic choice: nonsense, smallest error, the mean, failure."""

import numpy as np
import pytest

from autotune.skeletons.judging import drop_outlier_mean
from autotune.skeletons.selection import choose

# Gauss elimination, Table 1: Abar(n, 7) = T(n, 7) - T(n, 1)/7 for n <= 100, true value at 120.
G_N = [40, 50, 60, 70, 80, 90, 100]
G_1 = [0.7368, 1.3365, 2.3677, 3.6826, 5.1556, 7.4163, 10.059]
G_7 = [0.2772, 0.4833, 0.8069, 1.2549, 1.7971, 2.6108, 3.6038]
G_ABAR = [a - b / 7 for a, b in zip(G_7, G_1, strict=True)]
G_TRUE_120 = 6.2055 - 17.352 / 7


def test_known_value_choice_falls_back_to_the_mean_of_the_two_nearest():
    c = choose(G_N, G_ABAR, 120, mode="known", actual=G_TRUE_120, epsilon=0.02)
    by = {r.method: r for r in c.results}
    assert abs(by["spline"].error) > 0.02 and abs(by["loess"].error) > 0.02
    assert c.ok and c.chosen == "mean(loess+spline)"
    assert c.value == pytest.approx((by["spline"].estimate + by["loess"].estimate) / 2)
    assert abs(c.value / G_TRUE_120 - 1) < 0.02


def test_smallest_error_under_epsilon_wins():
    c = choose(G_N, G_ABAR, 120, mode="known", actual=G_TRUE_120, epsilon=0.05)
    assert c.chosen == "loess"  # 2.4 % beats spline's 3.1 %; under epsilon, no mean needed
    assert "smallest error" in c.reason


def test_failure_asks_for_more_measurements():
    c = choose(G_N, G_ABAR, 120, mode="known", actual=G_TRUE_120, epsilon=1e-4)
    assert not c.ok and c.value is None
    assert "take more measurements" in c.reason


def test_real_life_holds_out_the_last_points_and_reports_them():
    y = [x**2 + 0.5 * x for x in G_N]
    c = choose(G_N, y, 120, holdout=2)
    assert c.holdout == [90.0, 100.0]
    lmpoly = next(r for r in c.results if r.method == "lmpoly")
    # each held-out point is predicted from the points before it
    assert lmpoly.checks == pytest.approx([90**2 + 45, 100**2 + 50])
    assert c.ok and c.value == pytest.approx(120**2 + 60, rel=1e-9)


def test_nonsense_negative_times_are_discarded():
    # LBM T(n, p) over p, predicted directly (no Abar): every method goes negative at 262144.
    p = [32768, 65536, 98304, 131072, 196608]
    t = [16.285, 9.99, 6.82, 6.80, 5.284]
    c = choose(p, t, 262144, mode="known", actual=5.273)
    assert not c.ok
    notes = {r.method: r.note for r in c.results}
    assert "nonsense" in notes["spline"] and "nonsense" in notes["lmpoly"]


def test_three_best_drop_the_outlier():
    assert drop_outlier_mean([1.0, 1.2, 5.0]) == pytest.approx(1.1)
    assert drop_outlier_mean([-4.0, 2.0, 2.4]) == pytest.approx(2.2)
    x = np.arange(1.0, 10.0)
    y = np.sqrt(x) * 10
    c = choose(x, y, 12, method="mean", mean_strategy="three-drop-outlier", holdout=2)
    assert c.ok and "drop outlier" in c.chosen
    ests = sorted(r.estimate for r in c.results if r.method in c.components)
    assert len(ests) == 3
    assert c.value == pytest.approx(drop_outlier_mean(ests))


def test_fixed_method_is_used_even_if_not_best():
    c = choose(G_N, G_ABAR, 120, method="lm")
    assert c.ok and c.chosen == "lm" and c.reason == "lm requested"


def test_too_few_points_for_any_check():
    c = choose([1.0, 2.0], [1.0, 2.0], 3.0)
    assert not c.ok and "take more measurements" in c.reason

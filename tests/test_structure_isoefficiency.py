"""Isoefficiency (seed 001): the formulas at hand-computed points, the p >= 9
validity, and the empirical problem-size search."""

import math

import numpy as np
import pytest

from autotune.structmodels import isoefficiency as iso


def test_efficiency_and_required_workload_are_inverse():
    for e in (0.1, 0.5, 0.9):
        h = 3.7
        assert iso.efficiency(iso.required_workload(e, h), h) == pytest.approx(e)
    assert iso.iso_constant(0.5) == 1.0 and iso.iso_constant(0.9) == pytest.approx(9.0)
    with pytest.raises(ValueError):
        iso.iso_constant(1.0)


def test_block_overhead_at_hand_computed_points():
    # h = 8 (ts + n/sqrt(p) tw) with the T3E constants and n = 1024.
    assert iso.block_overhead(1024, 16) == pytest.approx(8 * (3e-6 + 256 * 0.063e-6))
    assert iso.block_overhead(1024, 64) == pytest.approx(8 * (3e-6 + 128 * 0.063e-6))
    assert iso.block_overhead(100, 9, ts=1.0, tw=0.3) == pytest.approx(8 * (1 + 10))


def test_block_isoefficiency_formula_at_points():
    # E = 0.5 (C = 1), p = 16: transfer term 8*1024*4*0.063e-6 dominates 8*16*3e-6.
    assert iso.block_isoefficiency(0.5, 1024, 16) == pytest.approx(8 * 1024 * 4 * 0.063e-6)
    # p = 4096: start-up term 8*4096*3e-6 dominates 8*1024*64*0.063e-6.
    assert iso.block_isoefficiency(0.5, 1024, 4096) == pytest.approx(8 * 4096 * 3e-6)
    # E = 0.9 (C = 9), tc = 1 us: workload in operations.
    assert iso.block_isoefficiency(0.9, 1024, 100, tc=1e-6) == pytest.approx(
        9 * 8 * 1024 * 10 * 0.063
    )
    # The sum form is the total overhead C p h, between the max and twice it.
    w_max = iso.block_isoefficiency(0.5, 1024, 400)
    w_sum = iso.block_isoefficiency(0.5, 1024, 400, form="sum")
    assert w_sum == pytest.approx(400 * iso.block_overhead(1024, 400))
    assert w_max < w_sum <= 2 * w_max


def test_crossover_where_terms_meet():
    p = iso.crossover_p(1024)
    assert p == pytest.approx((1024 * 0.063 / 3) ** 2)
    assert 8 * p * 3e-6 == pytest.approx(8 * 1024 * math.sqrt(p) * 0.063e-6)


def test_block_model_refuses_small_p():
    with pytest.raises(ValueError, match="p >= 9"):
        iso.block_overhead(1024, [4, 16])
    with pytest.warns(UserWarning):
        iso.block_isoefficiency(0.5, 1024, [4, 16], strict=False)


def test_figure7_curves_increase_with_efficiency_and_p():
    ps = [9, 64, 1024]
    curves = iso.figure7(ps)
    assert sorted(curves) == list(iso.FIGURE7_E)
    values = np.array([curves[e] for e in iso.FIGURE7_E])
    assert np.all(np.diff(values, axis=0) > 0) and np.all(np.diff(values, axis=1) > 0)


def test_empirical_required_size_solves_the_balance():
    # T(n) = 1e-6 n^2, Abar = 1e-4 log2 p + 1e-8 n: T(n) = C p Abar is a quadratic.
    model = iso.EmpiricalIsoefficiency(
        lambda n: 1e-6 * n * n, lambda n, p: 1e-4 * math.log2(p) + 1e-8 * n
    )
    for p in (2, 16, 64):
        c = 4.0  # E = 0.8
        a, b, k = 1e-6, -c * p * 1e-8, -c * p * 1e-4 * math.log2(p)
        n_true = (-b + math.sqrt(b * b - 4 * a * k)) / (2 * a)
        pt = model.required_size(0.8, p, 1.0, 1e7)
        assert pt.status == "ok"
        assert pt.n == pytest.approx(n_true, rel=1e-9)
        assert model.efficiency(pt.n, p) == pytest.approx(0.8)
    assert model.required_size(0.8, 2, 1e5, 1e7).status == "below-range"
    assert model.required_size(0.8, 64, 1.0, 10.0).status == "not-reached"


def test_interpolators():
    f = iso.loglog_interpolator([10, 100, 1000], [2e-4, 2e-2, 2.0])  # 2e-6 n^2
    assert f(300) == pytest.approx(2e-6 * 300**2)
    assert f(1e5) == pytest.approx(2e-6 * 1e10)  # extended as the end power law
    g = iso.grid_interpolator([10, 100], [2, 4], np.array([[1.0, 2.0], [3.0, 4.0]]))
    assert g(10, 2) == pytest.approx(1.0) and g(100, 4) == pytest.approx(4.0)
    assert g(math.sqrt(1000), 2 * math.sqrt(2)) == pytest.approx(2.5)
    with pytest.raises(ValueError):
        iso.loglog_interpolator([1, 2], [1.0, -1.0])

"""Ranking-quality metrics on small hand-computed examples."""

import json
import math

import pytest

from autotune.models.quality import (
    best_pruned,
    evaluate,
    geomean_regret,
    kendall_tau,
    mean_abs_rel_error,
    model_order,
    regret_at_k,
)


def test_same_order_is_perfect():
    pred = [1.0, 2.0, 3.0, 4.0]
    meas = [10.0, 20.0, 30.0, 40.0]
    r = evaluate(pred, meas, k=1)
    assert r.kendall_tau == pytest.approx(1.0)
    assert r.regret[1] == 0.0 and r.best_pruned is False and r.exhaustive


def test_reversed_order():
    assert kendall_tau([1, 2, 3], [3, 2, 1]) == pytest.approx(-1.0)


def test_regret_by_hand():
    pred = [1.0, 2.0, 3.0]
    meas = [3.0, 1.0, 2.0]
    # model's top 1 is variant 0 (measured 3.0); the best measured is 1.0
    assert regret_at_k(pred, meas, 1) == pytest.approx(3.0 / 1.0 - 1)
    assert regret_at_k(pred, meas, 2) == 0.0
    assert best_pruned(pred, meas, 1) is True
    assert best_pruned(pred, meas, 2) is False
    # pairs: (0,1) discordant, (0,2) discordant, (1,2) concordant -> (1-2)/3
    assert kendall_tau(pred, meas) == pytest.approx(-1 / 3)


def test_mean_abs_rel_error_by_hand():
    assert mean_abs_rel_error([1.0, 2.0], [2.0, 2.0]) == pytest.approx(0.25)


def test_pruned_variants_are_left_out():
    pred = [1.0, 2.0, 3.0, 4.0]
    meas = [2.0, None, float("nan"), 1.0]
    r = evaluate(pred, meas, k=2, regret_ks=(1, 2))
    assert r.n_measured == 2 and not r.exhaustive
    assert r.mean_abs_rel_error == pytest.approx((0.5 + 3.0) / 2)
    assert r.regret[1] == pytest.approx(1.0)
    assert r.regret[2] == pytest.approx(1.0)  # variant 1 in the top 2 was not measured
    assert r.best_pruned is True
    assert r.kendall_tau == pytest.approx(-1.0)
    d = r.to_dict()
    json.dumps(d)
    assert d["regret"] == {"1": pytest.approx(1.0), "2": pytest.approx(1.0)}
    assert d["target"] == "wall"


def test_nothing_measured():
    r = evaluate([1.0, 2.0], [None, None], target="cpu")
    assert r.kendall_tau is None and r.regret[1] is None and r.best_pruned is None
    assert r.to_dict()["target"] == "cpu"


def test_order_is_stable_and_geomean():
    assert model_order([2.0, 1.0, 1.0]).tolist() == [1, 2, 0]
    assert geomean_regret([0.0, 0.21, None]) == pytest.approx(math.sqrt(1.21) - 1)
    with pytest.raises(ValueError):
        regret_at_k([1.0], [1.0], 0)
    with pytest.raises(ValueError):
        evaluate([1.0, 2.0], [1.0])

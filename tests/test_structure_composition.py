"""E[max(X1, X2)^k] (seed 002): the order-statistics integral, the paper's
approximation and the two baselines."""

import math

import numpy as np
import pytest
from scipy import stats

from autotune.structmodels.composition import (
    FrozenDistribution,
    compose,
    empirical_max_moment,
    exact_max_moment,
    heuristic_choice,
    heuristic_moment,
    paper_max_moment,
    quantile_crossings,
)
from autotune.structmodels.gld import GeneralizedLambda
from autotune.structmodels.moments import Moments


def test_iid_standard_normal_max_via_lambda_fit_within_half_percent():
    g = GeneralizedLambda().fit_moments(0.0, 1.0, 0.0, 3.0)
    e_max = exact_max_moment(g, g, 1)
    assert abs(e_max - 1 / math.sqrt(math.pi)) / (1 / math.sqrt(math.pi)) < 0.005


def test_exact_integral_on_true_distributions_matches_closed_forms():
    n = FrozenDistribution(stats.norm())
    assert exact_max_moment(n, n, 1) == pytest.approx(1 / math.sqrt(math.pi), abs=1e-10)
    # max of two iid Exp(1) = Exp(2) + Exp(1): mean 1.5, second moment 1.25 + 1.5^2.
    e = FrozenDistribution(stats.expon())
    assert exact_max_moment(e, e, 1) == pytest.approx(1.5, abs=1e-10)
    assert exact_max_moment(e, e, 2) == pytest.approx(3.5, abs=1e-9)
    # Clark: E[max] for N(1,1), N(1,sigma^2) is 1 + sqrt(1 + sigma^2) phi(0).
    b = FrozenDistribution(stats.norm(1, 3))
    a = FrozenDistribution(stats.norm(1, 1))
    assert exact_max_moment(a, b, 1) == pytest.approx(
        1 + math.sqrt(10) / math.sqrt(2 * math.pi), abs=1e-9
    )


def test_paper_approximation_of_identical_tasks_is_the_task_itself():
    g = GeneralizedLambda().fit_moments(1.0, 1.0, 0.0, 3.0)
    assert paper_max_moment(g, g, 1) == pytest.approx(1.0, abs=1e-9)
    assert paper_max_moment(g, g, 2) == pytest.approx(2.0, abs=1e-9)


def test_disjoint_supports_make_every_method_exact():
    # U[0, 1] and U[1, 1.5]: Y = X2 always (the paper's Figure 1, m = 1).
    c = compose(Moments(0.5, 1 / 12, 0.0, 1.8), Moments(1.25, 0.25 / 12, 0.0, 1.8), (1, 2))
    truth = [1.25, 0.25 / 12 + 1.25**2]
    for method in ("heuristic", "lambda", "exact"):
        assert c.values[method] == pytest.approx(truth, rel=1e-9), method


def test_crossing_of_quantiles_for_unequal_spread():
    # N(1,1) vs N(1,4): quantiles cross at the common median u = 1/2.
    a = FrozenDistribution(stats.norm(1, 1))
    b = FrozenDistribution(stats.norm(1, 2))
    assert quantile_crossings(a, b) == pytest.approx([0.5], abs=1e-9)
    # Eq. 5 is then int_0^.5 Qa + int_.5^1 Qb = 1 + (sigma - 1) E[Z; Z > 0] = 1 + phi(0).
    assert paper_max_moment(a, b, 1) == pytest.approx(1 + stats.norm.pdf(0), abs=1e-9)


def test_heuristic_eq4_rule():
    big_mean = Moments(4.0, 0.25)
    wide = Moments(3.0, 4.0)
    assert heuristic_choice(big_mean, wide) == 1
    assert heuristic_choice(wide, big_mean) == 2
    # Equal means: the larger second moment wins.
    assert heuristic_choice(Moments(1.0, 9.0), Moments(1.0, 1.0)) == 1
    assert heuristic_moment(Moments(1.0, 1.0), Moments(1.0, 9.0), 2) == pytest.approx(10.0)


def test_lambda_beats_heuristic_for_large_variance_as_published():
    # Paper, Figure 6: for growing Var[X2] the lambda method's error falls while
    # eq. 4's grows. Truth by Clark's formula.
    for sigma in (3.0, 5.0):
        c = compose(Moments(1.0, 1.0), Moments(1.0, sigma**2), (1,))
        truth = 1 + math.sqrt(1 + sigma**2) * stats.norm.pdf(0)
        err_lambda = abs(c.values["lambda"][0] - truth) / truth
        err_heur = abs(c.values["heuristic"][0] - truth) / truth
        err_exact = abs(c.values["exact"][0] - truth) / truth
        assert err_exact < 0.005 < err_lambda < err_heur


def test_empirical_max_moment_equals_brute_force_over_pairs():
    rng = np.random.default_rng(11)
    a = rng.integers(0, 6, 40).astype(float)  # ties on purpose
    b = rng.integers(0, 6, 30).astype(float)
    brute = np.maximum.outer(a, b)
    for k in (1, 2):
        assert empirical_max_moment(a, b, k) == pytest.approx(np.mean(brute**k), rel=1e-12)


def test_compose_rejects_orders_beyond_four():
    with pytest.raises(ValueError):
        compose(Moments(0, 1), Moments(0, 1), (5,))

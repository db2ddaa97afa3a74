"""Power-law estimators: recover exponents, robustness, persistence, protocol."""

import json

import numpy as np
import pytest

from autotune.models.features import EXTENDED_FEATURES, FAITHFUL_FEATURES
from autotune.models.powerlaw import (
    ExtendedPowerLawModel,
    PowerLawModel,
    make_model,
)

NINE = EXTENDED_FEATURES[:9]  # the synthetic data below has seed 004's four + five columns
TRUE_A = np.array([-0.15, 0.9, 0.05, -0.3])
TRUE_C = 2e-9


def synthetic(n=60, noise=0.03, seed=0):
    rng = np.random.default_rng(seed)
    X = np.column_stack(
        [
            10 ** rng.uniform(-1, 3, n),  # X1 cache ratio
            10 ** rng.uniform(4, 9, n),  # X2 ops per thread
            10 ** rng.uniform(0, 4, n),  # X3 chunk iterations
            rng.choice([1, 2, 3, 4], n).astype(float),  # X4 threads
        ]
    )
    y = TRUE_C * np.prod(X**TRUE_A, axis=1) * np.exp(rng.normal(0, noise, n))
    return X, y


@pytest.mark.parametrize("loss", ["huber", "ols"])
def test_recovers_known_exponents(loss):
    X, y = synthetic()
    m = PowerLawModel(loss=loss).fit(X, y)
    assert m.coef_ == pytest.approx(TRUE_A, abs=0.03)
    assert m.intercept_ == pytest.approx(np.log(TRUE_C), abs=0.3)
    assert m.feature_names_ == list(FAITHFUL_FEATURES)
    pred = m.predict(X)
    assert np.median(np.abs(pred - y) / y) < 0.05


def test_huber_resists_a_10x_outlier_ols_does_not():
    X, y = synthetic(n=40, noise=0.02, seed=3)
    worst = int(np.argmax(X[:, 1]))  # a high-leverage point: the largest X2
    y_bad = y.copy()
    y_bad[worst] *= 10.0
    huber = PowerLawModel(loss="huber").fit(X, y_bad)
    ols = PowerLawModel(loss="ols").fit(X, y_bad)
    err_h = np.max(np.abs(huber.coef_ - TRUE_A))
    err_o = np.max(np.abs(ols.coef_ - TRUE_A))
    assert err_h < 0.05
    assert err_o > 2 * err_h
    clean = np.arange(len(y)) != worst
    rel_h = np.abs(huber.predict(X[clean]) - y[clean]) / y[clean]
    rel_o = np.abs(ols.predict(X[clean]) - y[clean]) / y[clean]
    assert rel_h.mean() < rel_o.mean()


def test_extended_indicator_is_a_multiplicative_factor():
    rng = np.random.default_rng(5)
    n = 80
    X = np.column_stack(
        [
            10 ** rng.uniform(-1, 3, n),
            10 ** rng.uniform(4, 8, n),
            10 ** rng.uniform(0, 3, n),
            rng.choice([1, 2, 4], n).astype(float),
            1 + rng.uniform(0, 1, n),  # imbalance
            1 + 10 ** rng.uniform(-3, 0, n),  # dispatch overhead
            rng.choice([1.0, 2.0], n),  # oversubscription
            np.zeros(n),
            np.zeros(n),
        ]
    )
    kind = rng.integers(0, 3, n)
    X[:, 7] = kind == 1
    X[:, 8] = kind == 2
    a = np.array([-0.1, 1.0, 0.02, -0.2, 1.0, 0.8, 0.5])
    g = np.array([0.3, 0.1])  # dynamic 35% slower, guided 10%
    y = 1e-9 * np.prod(X[:, :7] ** a, axis=1) * np.exp(X[:, 7:] @ g)
    y *= np.exp(rng.normal(0, 0.01, n))
    m = ExtendedPowerLawModel(features=NINE).fit(X, y)
    assert m.feature_names_ == list(NINE)
    assert m.coef_[:7] == pytest.approx(a, abs=0.05)
    assert m.coef_[7:] == pytest.approx(g, abs=0.03)
    assert m.coefficients()["sched_dynamic"] == pytest.approx(0.3, abs=0.03)


def test_constant_column_gets_zero_exponent():
    X, _ = synthetic()
    X[:, 3] = 2.0  # every sample ran with 2 threads: X4 carries no information
    y = TRUE_C * np.prod(X**TRUE_A, axis=1)
    m = PowerLawModel().fit(X, y)
    assert m.coef_[3] == 0.0
    assert m.coef_[:3] == pytest.approx(TRUE_A[:3], abs=0.01)
    assert m.predict(X) == pytest.approx(y, rel=0.02)


def test_json_round_trip_predicts_the_same():
    X, y = synthetic()
    m = ExtendedPowerLawModel(target="cpu", features=NINE).fit(
        np.column_stack([X, np.ones((len(X), 3)), np.zeros((len(X), 2))]), y
    )
    text = m.to_json(machine={"cpu_model": "test"}, label="fitted on test, 2024-01-01")
    doc = json.loads(text)
    assert doc["model"] == "extended" and doc["target"] == "cpu"
    assert doc["feature_names"] == list(NINE)
    back = ExtendedPowerLawModel.from_json(text)
    Xe = np.column_stack([X, np.ones((len(X), 3)), np.zeros((len(X), 2))])
    assert back.predict(Xe) == pytest.approx(m.predict(Xe))
    assert back.target == "cpu"
    assert back.metadata_["label"] == "fitted on test, 2024-01-01"
    with pytest.raises(ValueError):
        PowerLawModel.from_json(text)  # holds an extended model


def test_estimator_protocol_and_clone():
    from sklearn.base import clone

    m = PowerLawModel(target="cpu", loss="ols")
    assert m.get_params()["target"] == "cpu"
    c = clone(m)
    assert c.get_params() == m.get_params() and not hasattr(c, "coef_")
    X, y = synthetic()
    assert m.fit(X, y) is m
    assert 0.9 < m.score(X, y) <= 1.0


def test_input_validation():
    X, y = synthetic()
    with pytest.raises(ValueError):
        PowerLawModel().predict(X)  # not fitted
    with pytest.raises(ValueError):  # named features: the width must match
        PowerLawModel(features=FAITHFUL_FEATURES).fit(X[:, :3], y)
    fitted = PowerLawModel().fit(X, y)
    with pytest.raises(ValueError, match="features"):
        fitted.predict(X[:, :3])
    bad = X.copy()
    bad[0, 1] = -1.0
    with pytest.raises(ValueError, match="Negative values"):
        PowerLawModel().fit(bad, y)
    with pytest.raises(ValueError):
        PowerLawModel().fit(X, -y)
    with pytest.raises(ValueError):
        PowerLawModel(target="gpu").fit(X, y)
    with pytest.raises(ValueError):
        PowerLawModel(loss="l1").fit(X, y)


def test_make_model_by_name():
    assert isinstance(make_model("faithful"), PowerLawModel)
    assert isinstance(make_model("powerlaw"), PowerLawModel)
    assert isinstance(make_model("extended", target="cpu"), ExtendedPowerLawModel)
    with pytest.raises(ValueError):
        make_model("neural")


def test_few_samples_fall_back_to_least_squares():
    X, y = synthetic(n=10, noise=0.0)
    m = PowerLawModel(loss="huber").fit(X, y)
    assert m.loss_used_ == "ols"  # 10 < 3 * (4 + 1): Huber would interpolate a subset
    assert m.coef_ == pytest.approx(TRUE_A, abs=1e-3)
    X, y = synthetic(n=40)
    assert PowerLawModel(loss="huber").fit(X, y).loss_used_ == "huber"
    assert json.loads(PowerLawModel().fit(X, y).to_json())["loss_used"] == "huber"

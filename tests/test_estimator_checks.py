"""The estimators follow scikit-learn's protocol: ``check_estimator`` and the tools
built on it (clone, cross-validation, grid search).

The power-law models pass every check. The skeleton estimators extrapolate one
series y(x), so they take exactly one feature: the checks that fit on several
features cannot apply to them (listed below; each such failure must say so), and
every other check must pass.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV, cross_val_score
from sklearn.utils.estimator_checks import check_estimator

from autotune.models.powerlaw import ExtendedPowerLawModel, PowerLawModel
from autotune.skeletons.estimators import (
    LinearEstimator,
    LmPolyEstimator,
    LoessEstimator,
    PowerLawEstimator,
    SplineEstimator,
)
from autotune.structmodels.gld import GeneralizedLambda
from autotune.structmodels.hdc import HypercubeDC, LinearCost

# Checks whose data have several features (or, for the positive-only check, come
# from a several-feature data set): they cannot apply to a one-variable series.
MULTI_FEATURE_CHECKS = {
    "check_fit_score_takes_y",
    "check_estimators_overwrite_params",
    "check_dont_overwrite_parameters",
    "check_estimators_fit_returns_self",
    "check_readonly_memmap_input",
    "check_n_features_in_after_fitting",
    "check_positive_only_tag_during_fit",
    "check_estimators_dtypes",
    "check_dtype_object",
    "check_pipeline_consistency",
    "check_estimators_nan_inf",
    "check_estimators_pickle",
    "check_f_contiguous_array_estimator",
    "check_regressors_train",
    "check_regressor_data_not_an_array",
    "check_regressors_no_decision_function",
    "check_supervised_y_2d",
    "check_regressors_int",
    "check_methods_sample_order_invariance",
    "check_methods_subset_invariance",
    "check_dict_unchanged",
    "check_fit_idempotent",
    "check_fit_check_is_fitted",
    "check_n_features_in",
    "check_fit2d_predict1d",
}


def run_checks(estimator) -> list[dict]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # skipped checks (no pandas) warn
        return check_estimator(estimator, on_fail=None)


@pytest.mark.parametrize(
    "model", [PowerLawModel(), ExtendedPowerLawModel()], ids=["faithful", "extended"]
)
def test_power_law_models_pass_every_check(model):
    results = run_checks(model)
    failed = [
        (r["check_name"], str(r["exception"])[:200]) for r in results if r["status"] == "failed"
    ]
    assert not failed
    assert sum(r["status"] == "passed" for r in results) >= 55


@pytest.mark.parametrize(
    "estimator",
    [
        SplineEstimator(),
        LoessEstimator(),
        LmPolyEstimator(),
        LinearEstimator(),
        PowerLawEstimator(),
    ],
    ids=lambda e: type(e).__name__,
)
def test_series_estimators_pass_every_check_that_applies(estimator):
    results = run_checks(estimator)
    failed = [r for r in results if r["status"] == "failed"]
    unexpected = [
        (r["check_name"], str(r["exception"])[:200])
        for r in failed
        if r["check_name"] not in MULTI_FEATURE_CHECKS
    ]
    assert not unexpected
    for r in failed:
        if r["check_name"] != "check_positive_only_tag_during_fit":
            assert "must have 1 feature" in str(r["exception"]), r["check_name"]
    assert sum(r["status"] == "passed" for r in results) >= 20


def test_cross_validation_and_grid_search_work_on_the_power_law():
    rng = np.random.default_rng(0)
    X = rng.uniform(1.0, 100.0, size=(60, 4))
    y = 0.01 * X[:, 1] ** 0.9 * X[:, 3] ** -0.5 * np.exp(rng.normal(0, 0.02, 60))
    scores = cross_val_score(PowerLawModel(), X, y, cv=3)
    assert scores.shape == (3,) and np.all(np.isfinite(scores))
    grid = GridSearchCV(PowerLawModel(), {"loss": ["huber", "ols"]}, cv=3).fit(X, y)
    assert grid.best_params_["loss"] in ("huber", "ols")


def test_structure_estimators_clone_and_share_no_defaults():
    for est in (LinearCost(("N", "M")), HypercubeDC(split=("N",)), GeneralizedLambda(tol=1e-3)):
        copy = clone(est)
        assert copy.get_params() == est.get_params() and copy is not est
    a, b = HypercubeDC(), HypercubeDC()
    assert a.features is None and b.features is None  # nothing mutable shared

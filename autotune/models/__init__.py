"""Execution-time models that rank OpenMP loop variants before compiling.

- ``powerlaw``: seed 004's power-law model (``PowerLawModel``, "faithful") and
  ``ExtendedPowerLawModel`` ("extended"), scikit-learn style estimators.
- ``features``: their inputs from a LoopRecord + Variant + Machine.
- ``schedule_sim``: how libgomp deals iterations to threads (imbalance, dispatches).
- ``quality``: Kendall tau, relative error, regret@k, best-pruned.
- ``defaults``: coefficient files and the shipped defaults.
"""

from autotune.models.features import (
    EXTENDED_FEATURES,
    FAITHFUL_FEATURES,
    FeatureError,
    LoopFeatures,
    feature_matrix,
    loop_features,
    resolve_variant,
)


def __getattr__(name: str):  # the estimators import scikit-learn: on demand
    if name in ("ExtendedPowerLawModel", "PowerLawModel", "make_model"):
        from autotune.models import powerlaw

        return getattr(powerlaw, name)
    raise AttributeError(name)


__all__ = [
    "EXTENDED_FEATURES",
    "FAITHFUL_FEATURES",
    "ExtendedPowerLawModel",
    "FeatureError",
    "LoopFeatures",
    "PowerLawModel",
    "feature_matrix",
    "loop_features",
    "make_model",
    "resolve_variant",
]

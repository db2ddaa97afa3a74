"""Every performance model by name, for scripts: the API side of ``autotune models``.

Each model has one shape (``autotune.modelshape.PerformanceModel``)::

    from autotune.api import model, paper_model
    est = paper_model("saez-traces").predict(
        {"N": 1024e3, "M": 2048e3, "P": 8, "latency": 2.43e-4, "gap": 1.51e-7}
    )
    print(est.value, est.low, est.high, est.basis)
    m = model("skeleton", skeleton="parmap").fit(rows)  # rows of n, p, time
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the models import scipy and scikit-learn: on first use only
    from autotune.modelshape import ModelCard, PerformanceModel


def model(name: str, **params: Any) -> PerformanceModel:
    """A fresh model by name (``model_cards()`` lists them), with its parameters."""
    from autotune.tuning import registry

    return registry.make(name, **params)


def paper_model(table: str) -> PerformanceModel:
    """The model a shipped paper table belongs to, fitted on that table."""
    from autotune.tuning import registry

    return registry.fitted_on_paper(table)


def model_cards() -> list[ModelCard]:
    """What each model is: paper, what it predicts, what it is fitted from."""
    from autotune.tuning import registry

    return [registry.card(name) for name in registry.model_names()]


def paper_tables() -> dict[str, str]:
    """The shipped paper tables: name -> caption."""
    from autotune.tuning import registry

    return {name: t.caption for name, t in registry.PAPER_TABLES.items()}


def paper_tables_models() -> dict[str, str]:
    """The shipped paper tables: name -> the model fitted on it."""
    from autotune.tuning import registry

    return {name: t.model for name, t in registry.PAPER_TABLES.items()}

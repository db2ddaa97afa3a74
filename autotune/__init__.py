"""autotune: compiler-side autotuning of OpenMP loops in C.

The Python API lives in ``autotune.api``. Its names that are not also
subpackages (``Session``, ``analyze``, ``rank``, ``tune``, ``apply``,
``calibrate``, ``export``, and the models by name: ``model``, ``paper_model``,
``model_cards``, ``paper_tables``) are available here too, imported on first use so the
command line starts without them; ``measure``, ``campaign`` and ``report`` name
subpackages here, so those functions are ``autotune.api.measure`` and so on.
"""

__version__ = "0.1.0"

_API = (
    "Session",
    "analyze",
    "apply",
    "calibrate",
    "export",
    "model",
    "model_cards",
    "paper_model",
    "paper_tables",
    "paper_tables_models",
    "rank",
    "tune",
)


def __getattr__(name: str):  # PEP 562: the API on first use
    if name in _API:
        from autotune import api

        return getattr(api, name)
    raise AttributeError(f"module 'autotune' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *_API])

"""autotune: compiler-side autotuning of OpenMP loops in C.

The Python API (``autotune.Session``, ``autotune.analyze``, ``rank``, ``tune``,
``measure``, ``campaign``, ``report``, ``export``) lives in ``autotune.api`` and
is imported on first use, so the command line starts without it.
"""

__version__ = "0.1.0"

_API = (
    "Session",
    "analyze",
    "apply",
    "calibrate",
    "campaign",
    "export",
    "measure",
    "rank",
    "report",
    "tune",
)


def __getattr__(name: str):  # noqa: ANN202 - PEP 562: the API on first use
    if name in _API:
        from autotune import api

        return getattr(api, name)
    raise AttributeError(f"module 'autotune' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *_API])

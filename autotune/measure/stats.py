"""Summary of repeated runs: median and relative range.

With three repetitions (the default) quartiles mean nothing, so the spread
is the relative range ``(max - min) / median``; a spread above
``SPREAD_WARN`` (10%) means the machine was too noisy to trust small
differences between variants.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

SPREAD_WARN = 0.10


def median(values: Sequence[float]) -> float | None:
    return float(statistics.median(values)) if values else None


def spread(values: Sequence[float]) -> float | None:
    """(max - min) / median; None for no values, 0 for one."""
    if not values:
        return None
    med = statistics.median(values)
    if med <= 0:
        return 0.0 if max(values) == min(values) else None
    return float((max(values) - min(values)) / med)


def noisy(values: Sequence[float], limit: float = SPREAD_WARN) -> bool:
    s = spread(values)
    return s is not None and s > limit

"""A time limit on one loop's proof: a loop whose proof would take longer is kept as
written with that reason, and the file's other loops go on.

The walk and the dependence tests ask ``check()`` as they go; ``limited()`` is entered
around one proof. Like ``conditions`` and ``specialise``, the state is per process and
single-threaded. ``AUTOTUNE_PROOF_LIMIT_S`` sets the limit (default 10 s).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager

DEFAULT_LIMIT_S = 10.0


class ProofTimeout(Exception):
    """The loop's proof ran past its time limit."""


_DEADLINE: list[float] = []  # the innermost proof's deadline (monotonic seconds)


def limit_s() -> float:
    """The limit in seconds (a bad value in the environment: the default)."""
    try:
        value = float(os.environ.get("AUTOTUNE_PROOF_LIMIT_S", DEFAULT_LIMIT_S))
    except ValueError:
        return DEFAULT_LIMIT_S
    return value if value > 0 else DEFAULT_LIMIT_S


@contextmanager
def limited(seconds: float | None = None) -> Iterator[None]:
    """One proof, to end within ``seconds`` (the configured limit by default); a proof
    inside another keeps the outer one's deadline when it is sooner."""
    deadline = time.monotonic() + (seconds if seconds is not None else limit_s())
    if _DEADLINE:
        deadline = min(deadline, _DEADLINE[-1])
    _DEADLINE.append(deadline)
    try:
        yield
    finally:
        _DEADLINE.pop()


def check() -> None:
    """Raise ``ProofTimeout`` once the proof under way is past its deadline."""
    if _DEADLINE and time.monotonic() > _DEADLINE[-1]:
        raise ProofTimeout()

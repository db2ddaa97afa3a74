"""Proving one loop at the sizes a profile run measured, for a variant behind ``==`` tests.

Some loops are order-free only because of arithmetic outside Presburger's reach: NPB
FT's Stockham passes hand each thread's scratch rows to ``fftz2`` with
``lk = 2 << (l - 2)`` and ``li * lk = n / 2`` for ``n = 2^m``, so whether every
element a pass reads was written by the pass before cannot be asked of isl for every
size. At the sizes one run measured (constant over every execution of the loop), the
same question is affine: the sizes become numbers and the loop over passes is unrolled,
each pass a constant ``l``. A loop proven that way varies only behind a run-time test
of exactly those values (``d[0] == 64 && fftblock == 16``), and runs as written at any
other size: the loop versioning of ``guards``, with equalities.

The state is per proof and single-threaded, like ``conditions``: ``at_sizes()`` is
entered by the gate around one loop's second proof.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

UNROLL_MAX = 16  # passes of a loop unrolled into constants (log2 of FFT sizes and the like)
WALK_BUDGET = 64  # pass walks in one loop's proof, nested unrolled loops multiplying


@dataclass
class _State:
    loop: int | None = None  # id() of the for node being specialised
    fixed: dict[str, int] = field(default_factory=dict)  # C text -> measured value
    used: set[str] = field(default_factory=set)  # texts the proof took as those values


_STATE = _State()


@contextmanager
def at_sizes(loop_id: int, fixed: dict[str, int]) -> Iterator[set[str]]:
    """Prove the loop whose for node has ``id() == loop_id`` with ``fixed`` standing in
    for those C expressions, unrolling short constant loops; yields the texts it used."""
    saved = _STATE.loop, _STATE.fixed, _STATE.used
    _STATE.loop, _STATE.fixed, _STATE.used = loop_id, dict(fixed), set()
    try:
        yield _STATE.used
    finally:
        _STATE.loop, _STATE.fixed, _STATE.used = saved


def specialising(loop_id: int) -> bool:
    """The walk of this loop is the specialised one (unrolls, takes fixed values)."""
    return _STATE.loop is not None and _STATE.loop == loop_id


def value_of(loop_id: int, text: str) -> int | None:
    """The measured value standing in for ``text`` in this loop's walk (None: none)."""
    if not specialising(loop_id) or text not in _STATE.fixed:
        return None
    _STATE.used.add(text)
    return _STATE.fixed[text]


def fixed_values(profile: dict, texts: set[str]) -> dict[str, int]:
    """Of ``texts``, those a profile measured with one value over every execution of the
    loop (a size that changes between executions cannot stand as one number)."""
    ranges = profile.get("ranges") or {}
    out = {}
    for text in sorted(texts):
        low_high = ranges.get(text)
        if low_high and len(low_high) == 2 and low_high[0] == low_high[1]:
            out[text] = int(low_high[0])
    return out


def guard_text(values: dict[str, int]) -> str:
    """The C test of the sizes a proof was made at: ``d[0] == 64 && fftblock == 16``."""
    return " && ".join(f"({text}) == {value}" for text, value in sorted(values.items()))

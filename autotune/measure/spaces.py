"""Which variants a measurement sweeps: an explicit list or the exhaustive space.

The default space (and ``--schedules/--chunks/--threads``) belong to
``autotune.variants.space``; this module only adds the two forms that exist
for measurement: ``--variants LIST`` and ``--exhaustive`` (every schedule
kind, every power-of-two chunk up to the iterations per thread, every
default thread count: the ground truth a model is judged against).
"""

from __future__ import annotations

import re

from autotune.errors import UserError
from autotune.variants import space
from autotune.variants.space import Variant


def parse_variant(text: str) -> Variant:
    """``dynamic,16,t2`` (a variant key), or shorter: ``dynamic,16``, ``guided``, ``static,-,4``.

    ``-`` leaves a field as written; threads may be given as ``t2`` or ``2``.
    """
    parts = [p.strip() for p in text.strip().split(",")]
    if text.strip() == "baseline":
        return space.BASELINE
    if not 1 <= len(parts) <= 3 or not parts[0]:
        raise UserError(f"--variants: cannot read {text!r}; expected SCHEDULE[,CHUNK[,tTHREADS]]")
    parts += ["-"] * (3 - len(parts))
    sched = parts[0].lower()
    if sched != "-" and sched not in space.SCHEDULES:
        raise UserError(
            f"--variants: unknown schedule {sched!r} in {text!r} (use {', '.join(space.SCHEDULES)})"
        )
    chunk = _number(parts[1], text)
    threads = _number(parts[2].lower().removeprefix("t"), text)
    if sched == "-" and chunk is not None:
        raise UserError(f"--variants: a chunk needs a schedule in {text!r}")
    if sched == "auto" and chunk is not None:
        raise UserError(f"--variants: schedule auto takes no chunk ({text!r})")
    return Variant(None if sched == "-" else sched, chunk, threads)


def _number(s: str, text: str) -> int | None:
    if s in ("-", "", "none"):
        return None
    if not s.isdigit() or int(s) < 1:
        raise UserError(f"--variants: {s!r} in {text!r} is not a positive whole number")
    return int(s)


def parse_variant_list(items: list[str]) -> list[Variant]:
    """Variants from repeated ``--variants`` values, each split on spaces or ``;``."""
    out: list[Variant] = []
    for item in items:
        for word in re.split(r"[\s;]+", item.strip()):
            if word:
                v = parse_variant(word)
                if v not in out:
                    out.append(v)
    if not out:
        raise UserError("--variants: no variant given")
    return out


def exhaustive_space(record, cores: int) -> list[Variant]:  # a LoopRecord
    """Every schedule x every power-of-two chunk (bounded per thread) x every thread count."""
    if not record.tunable:
        return []
    counts: list[int | None] = (
        space.default_thread_counts(cores) if record.parallel is not None else [None]
    )
    out: list[Variant] = []
    for t in counts:
        chunks = [None, *space.chunk_sizes(record.trip_count, t or cores, limit=10_000)]
        for sched in space.SCHEDULES:
            out.extend(Variant(sched, c, t) for c in ([None] if sched == "auto" else chunks))
    return out

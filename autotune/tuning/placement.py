"""Thread placement (``proc_bind``) as a last, whole-program step, where it can pay.

Binding threads to places changes nothing a program computes, only where its
threads run. On one NUMA node it did not explain any schedule's loss (gemm at 16
threads: 0.57 s unbound, 0.58 s close, 0.68 s spread, against 0.12-0.14 s with
``dynamic,1`` in every binding), so it is left out there. On several nodes,
``close`` and ``spread`` are tried on every region the tuned program changes,
whole program, plain builds, verified, and kept only when faster beyond noise.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from autotune.frontend.records import LoopRecord
from autotune.tuning.confirm import Confirmation, ProgramCheck, ProgramRuns, required_gain
from autotune.variants.space import BINDINGS, Variant


@dataclass
class Placement:
    nodes: int
    bind: str | None = None  # chosen; None: as written
    tries: list[tuple[str, ProgramRuns]] = field(default_factory=list)
    decision: str = ""

    def to_dict(self) -> dict:
        return {
            "numa_nodes": self.nodes,
            "bind": self.bind,
            "decision": self.decision,
            "tries": [{"bind": b, **r.to_dict()} for b, r in self.tries],
        }


def with_bind(
    pairs: list[tuple[LoopRecord, Variant]], bind: str | None
) -> list[tuple[LoopRecord, Variant]]:
    return [
        (r, Variant(v.schedule, v.chunk, v.threads, bind))
        for r, v in pairs
        if r.parallel is not None
    ]


def tune_placement(
    check: ProgramCheck,
    confirmation: Confirmation,
    pairs: list[tuple[LoopRecord, Variant]],
    best: ProgramRuns,
    nodes: int,
) -> Placement:
    """Try each binding on the shipped choices ``pairs`` when there are several nodes."""
    result = Placement(nodes)
    if nodes <= 1:
        result.decision = "one NUMA node: thread placement left out (it cannot pay here)"
        return result
    if not pairs or confirmation.original.status != "ok":
        result.decision = "no tuned region to place"
        return result
    original = check.original_build()
    for bind in BINDINGS:
        runs = check.try_choices(original, with_bind(pairs, bind), confirmation.original)
        result.tries.append((bind, runs))
    ok = [(b, r) for b, r in result.tries if r.status == "ok" and r.median_s]
    if not ok or not best.median_s:
        result.decision = "no binding could be measured: placement as written"
        return result
    bind, runs = min(ok, key=lambda x: x[1].median_s)
    gain = best.median_s / runs.median_s - 1.0
    need = required_gain(best, runs)
    if gain > need:
        result.bind = bind
        result.decision = f"proc_bind({bind}): the program is {gain + 1:.2f}x faster"
    else:
        result.decision = (
            f"placement as written: proc_bind({bind}) gave {gain:+.1%} (needs > {need:.1%})"
        )
    return result

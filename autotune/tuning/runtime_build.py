"""Is the run-time selection build a fair stand-in for the loop as written?

In the default compile mode a loop's variants share one binary with
``schedule(runtime)`` and a thread count read at run time, while the original is
compiled as written. The two are not always the same code: a written ``static``
schedule is open-coded by gcc, a run-time one goes through libgomp's work-share calls at
every execution of the loop (on this project's 2-core VM, a 64-iteration loop run 200,000
times inside one parallel region: 2x slower without ``nowait``, 8x with it; doitgen
14%), and on the recorded 16-core sweeps the variants libgomp runs exactly as written
measured +4.4% (median) slower than the originals, bicg's 3.3x. Every variant measured
through such a build starts with that handicap, and the search compares it with the
original: gains are missed, and the loop speedups understated.

So before the search, the loop as written is measured once through the run-time build
(its *twin*). When the twin differs from the original beyond the noise (the whole 95%
interval of the ratio beyond the decision margin, either way: a faster twin would
overstate every variant's gain), the loop's variants are compiled each with its own
clauses instead, as the original is, and the report says so. The twin is a
reference only: it is never a candidate.
"""

from __future__ import annotations

from dataclasses import dataclass

from autotune.frontend.records import LoopRecord
from autotune.measure.intervals import RatioInterval, ratio_interval
from autotune.measure.results import VariantResult
from autotune.measure.sweep import loop_mode
from autotune.variants.equivalence import as_written
from autotune.variants.space import Variant

# runs of the original and of its twin the decision takes at least: a percentile interval
# of two runs' medians is as narrow as two runs happen to be
TWIN_RUNS = 3


@dataclass
class RuntimeBuildCheck:
    """The original against its twin in the run-time selection build."""

    twin: str  # the twin's variant key
    twin_s: float | None  # its median loop time
    interval: RatioInterval | None  # original / twin (below 1: the twin is slower)
    own_binaries: bool  # the loop's variants were then compiled each on its own
    status: str = "ok"  # the twin's run status

    def text(self) -> str:
        if self.status != "ok" or self.interval is None:
            return f"{ONE_BINARY} running the loop as written: {self.status}"
        slower = 1.0 / self.interval.ratio
        span = f"[{1.0 / self.interval.high:.2f}, {1.0 / self.interval.low:.2f}]"
        said = (
            "its variants were compiled each with its own clauses"
            if self.own_binaries
            else "variants measured through it"
        )
        return (
            f"{ONE_BINARY} runs the loop as written in {slower:.2f}x the original's time "
            f"{span}: {said}"
        )

    def to_dict(self) -> dict:
        return {
            "twin": self.twin,
            "twin_s": self.twin_s,
            "original_over_twin": self.interval.to_dict() if self.interval else None,
            "own_binaries": self.own_binaries,
            "status": self.status,
        }


# what the tune calls the one binary that takes its schedule from OMP_SCHEDULE
ONE_BINARY = "the one build that takes every variant's schedule at run time (schedule(runtime))"


def twin_variant(record: LoopRecord) -> Variant | None:
    """The loop as written, as the run-time build runs it (None: not expressible)."""
    written = as_written(record)
    if written is None or (written.threads is not None and written.threads < 1):
        return None
    return Variant(written.schedule, written.chunk, written.threads)


def check_runtime_build(sweep, record: LoopRecord, baseline: VariantResult):
    """Measure the twin when ``sweep`` measures ``record`` through the run-time build, and
    switch the loop to builds of its own when the twin is slower beyond the noise.
    Returns (the check or None, the sweep's answer for the compile count or None)."""
    switch = getattr(sweep, "use_own_binaries", None)
    twin = twin_variant(record)
    if switch is None or twin is None or not baseline.ok or len(baseline.times_s) < 2:
        return None, None  # one run of each: no interval, nothing to decide on
    if loop_mode(sweep.options.compile_mode, record) != "runtime":
        return None, None
    runs = max(TWIN_RUNS, sweep.options.repetitions)
    measured = sweep.measure_loop(record, [twin], repetitions=runs)
    got = next((vr for vr in measured.variants if vr.key == twin.key), None)
    if got is None or not got.ok:
        status = got.status if got is not None else "not run"
        return RuntimeBuildCheck(twin.key, None, None, False, status), measured
    base = measured.baseline if measured.baseline is not None else baseline
    interval = ratio_interval(base.times_s, got.times_s)
    differs = interval is not None and (interval.slower() or interval.faster())
    if differs:
        switch(record)
    return RuntimeBuildCheck(twin.key, got.measured_s, interval, differs), measured

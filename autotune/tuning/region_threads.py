"""Thread counts chosen per parallel region, by the whole program's time.

A region that runs several loops has one thread count for all of them
(``num_threads`` belongs to the region), so no loop's own measurement can
choose it: a count that helps one loop may slow the region's dominant loop.
The legality gate marks the loops of a region whose count may change as a
whole (``LoopRecord.region_threads``); here each such region gets each
candidate count in turn, applied on top of the loop choices already
confirmed, and the whole program is built plain, run interleaved with the
original and verified. A count is kept only when the program is faster than
the best so far beyond the noise.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from autotune.frontend.constants import int_constant
from autotune.frontend.records import LoopRecord
from autotune.measure.intervals import MARGIN, RatioInterval, ratio_interval
from autotune.measure.machine_state import LoadWatch
from autotune.tuning.confirm import Confirmation, ProgramCheck, ProgramRuns
from autotune.variants.space import Variant, default_thread_counts


@dataclass
class RegionTry:
    threads: int
    runs: ProgramRuns
    original_s: list[float] = field(default_factory=list)  # the original's runs beside it

    @property
    def interval(self) -> RatioInterval | None:
        """The whole program's speedup with this count over the original; None when a
        run of it failed (its earlier runs' times are no speedup of a verified program)."""
        if self.runs.status != "ok":
            return None
        return ratio_interval(self.original_s, self.runs.times_s)

    def to_dict(self) -> dict:
        iv = self.interval
        return {
            "threads": self.threads,
            **self.runs.to_dict(),
            "speedup_interval": iv.to_dict() if iv else None,
        }


@dataclass
class RegionResult:
    """One region: its loops, what was tried, and the count kept (None: as written)."""

    id: str  # the parallel directive's file:line (a time step: its loop's file:line)
    records: list[LoopRecord]
    threads: int | None = None
    tries: list[RegionTry] = field(default_factory=list)
    decision: str = ""
    # the load that held a faster count back ('' when none was): said like the whole
    # program's, with the same exit status
    held_back: str = ""
    # "region": one parallel region's loops; "step": the teams one step of a sequential
    # loop starts, given one thread count together (``step_groups``)
    kind: str = "region"

    @property
    def label(self) -> str:
        lines = ", ".join(str(r.line) for r in self.records)
        if self.kind == "step":
            return f"the teams of the time step at {self.id} (loops {lines})"
        return f"parallel region {self.id} (loops {lines})"

    def to_dict(self) -> dict:
        return {
            "region": self.id,
            "kind": self.kind,
            "loops": [r.id for r in self.records],
            "threads": self.threads,
            "decision": self.decision,
            "tries": [t.to_dict() for t in self.tries],
        }


def tunable_regions(records: list[LoopRecord]) -> list[RegionResult]:
    """Regions whose thread count the gate lets change as a whole, in file order."""
    by_region: dict[str, list[LoopRecord]] = {}
    for r in records:
        if r.region_threads and r.parallel is not None:
            key = f"{r.parallel.file}:{r.parallel.line}"
            by_region.setdefault(key, []).append(r)
    return [RegionResult(key, recs) for key, recs in by_region.items()]


def step_groups(records: list[LoopRecord]) -> list[RegionResult]:
    """The loops whose teams one step of a sequential loop starts, one group per step, when
    every team of the step is one of these loops and each may change its thread count on
    its own (a combined ``parallel for``). Given one count together, they start no
    threads between them (``models/teams.py``), which no loop's own variant can show: each
    alone pays the starts its neighbours' counts cause."""
    by_step: dict[str, list[LoopRecord]] = {}
    for r in records:
        if r.team_step and r.team_position >= 0:
            by_step.setdefault(r.team_step, []).append(r)
    groups = []
    for step, recs in by_step.items():
        cycle = len(recs[0].team_cycle)
        positions = sorted(r.team_position for r in recs)
        eligible = all(
            r.tunable
            and "threads" not in r.kept
            and not r.region_threads
            and r.parallel is r.directive
            for r in recs
        )
        if eligible and cycle >= 2 and positions == list(range(cycle)):
            groups.append(
                RegionResult(step, sorted(recs, key=lambda r: r.team_position), kind="step")
            )
    return groups


def final_pairs(
    confirmation: Confirmation, regions: list[RegionResult]
) -> list[tuple[LoopRecord, Variant]]:
    """Every loop's variant as it ships: its own choice with its region's count merged in."""
    chosen = {c.record.id: (c.record, c.variant) for c in confirmation.kept}
    for region in regions:
        if region.threads is None:
            continue
        for r in region.records:
            _, v = chosen.get(r.id, (r, Variant(None, None, None)))
            chosen[r.id] = (r, Variant(v.schedule, v.chunk, region.threads))
    return list(chosen.values())


def tune_regions(
    check: ProgramCheck, confirmation: Confirmation, regions: list[RegionResult], cores: int
) -> None:
    """Try each region's candidate counts on the whole program; keep what is faster."""
    if not regions or confirmation.original.status != "ok":
        for region in regions:
            region.decision = "not tried: the original program could not be measured"
        return
    original = check.original_build()
    reached = confirmation.speedup or 1.0  # what the program reached before this region
    for region in regions:
        base = final_pairs(confirmation, regions)
        watch = LoadWatch().start()
        for t in default_thread_counts(cores):
            if _written_threads(region, cores) == {t}:
                continue  # the program as written: nothing to try
            pairs = [(r, v) for r, v in base if r.id not in {x.id for x in region.records}]
            owned = {r.id: v for r, v in base}
            for r in region.records:
                v = owned.get(r.id, Variant(None, None, None))
                pairs.append((r, Variant(v.schedule, v.chunk, t)))
            first = len(confirmation.original.times_s)
            runs = check.try_choices(original, pairs, confirmation.original)
            region.tries.append(RegionTry(t, runs, confirmation.original.times_s[first:]))
        region.decision = _decide(region, reached)
        load = watch.stop()
        busy = load.busy() if load is not None else ""
        if busy and region.threads is not None and not check.allow_busy:
            region.decision = (
                f"kept as written: the machine was busy ({busy}); "
                f"num_threads({region.threads}) looked faster then, which a passing load "
                "can cause (threads descheduled at barriers)"
            )
            region.threads = None
            region.held_back = busy
        elif busy:
            region.decision += f" (the machine was busy: {busy})"
        if region.threads is not None:
            kept = next(x for x in region.tries if x.threads == region.threads)
            reached = kept.interval.ratio if kept.interval else reached


def _written_threads(region: RegionResult, cores: int) -> set[int | None]:
    """The thread counts the region's teams run with as written: a constant num_threads,
    else the team the profile run measured, else the default (``cores``); None for a
    count not known before the run."""
    counts: set[int | None] = set()
    for r in region.records:
        text = r.parallel.clauses.num_threads if r.parallel is not None else None
        value = cores if text is None else int_constant(text)
        counts.add(r.team if r.team is not None and (value is None or text is None) else value)
    return counts


def _decide(region: RegionResult, reached: float) -> str:
    """Keep the count whose whole-program speedup over the original is shown, by its
    interval, to beat what the program reached without it (``reached``) by the margin."""
    shown = [(x, x.interval) for x in region.tries if x.runs.status == "ok"]
    shown = [(x, iv) for x, iv in shown if iv is not None]
    bad = [x for x in region.tries if x.runs.status != "ok"]
    note = "; ".join(f"num_threads({x.threads}): {x.runs.status}" for x in bad)
    if not shown:
        return "kept as written: no count could be measured" + (f" ({note})" if note else "")
    best, iv = max(shown, key=lambda p: p[1].low)
    if iv.faster(over=reached):
        region.threads = best.threads
        return (
            f"num_threads({best.threads}) for the region: the whole program runs {iv.text()} "
            f"as fast as the original (it reached {reached:.3f}x without it)"
        )
    return (
        f"kept as written: the best count, {best.threads}, ran the whole program {iv.text()} "
        f"as fast as the original, not beyond {reached:.3f}x by {MARGIN:.0%}"
    )


def best_runs(confirmation: Confirmation, regions: list[RegionResult]) -> ProgramRuns:
    """The runs of the program as it ships (the last improvement kept)."""
    best = confirmation.tuned or confirmation.original
    for region in regions:
        if region.threads is not None:
            best = next(x.runs for x in region.tries if x.threads == region.threads)
    return best

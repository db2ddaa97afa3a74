"""Measure every selected loop of a file: the flow behind ``autotune measure``.

Analyse (with one stored profile run when a loop is sized at run time), pick
each loop's variants, sweep them, and keep a loop whose variants cannot be
written as a skipped result rather than an error. Nothing here parses
arguments or prints.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from autotune.errors import UserError
from autotune.frontend.options import SourceOptions
from autotune.frontend.records import LoopRecord, select_loops
from autotune.measure.build import BuildOptions
from autotune.measure.machine import Machine
from autotune.measure.profile import ProfileRequest, analyze_with_profile
from autotune.measure.results import LoopResult
from autotune.measure.store import Store
from autotune.measure.sweep import Sweep, SweepOptions
from autotune.variants.errors import EmitError
from autotune.variants.space import Variant


@dataclass
class FileMeasurement:
    path: str
    results: list[LoopResult]
    profile_note: str  # whether a profile run was made or reused ("" when none needed)
    database: str


def measure_file(
    path: str,
    source: SourceOptions,
    build: BuildOptions,
    options: SweepOptions,
    store: Store,
    machine: Machine,
    variants_for: Callable[[LoopRecord], Sequence[Variant]],
    *,
    loops: Sequence[str] = (),
    profile: ProfileRequest | None = None,
    strict: bool = False,
    on_plan: Callable[[int], None] | None = None,
    on_run: Callable[[str], None] | None = None,
) -> FileMeasurement:
    """Sweep ``variants_for(loop)`` of every selected loop (the original added).

    ``strict`` (loops named or variants given by the user): a loop that is not
    tunable, or whose variants cannot be written, is an error instead of a
    skipped result.
    """
    unit, note = analyze_with_profile(
        path, source, profile, store, threads=machine.cores, cc=build.cc
    )
    records = select_loops(unit.loops, loops)
    if loops:
        for r in records:
            if not r.tunable:
                raise UserError(f"loop {r.id} is not tunable: {r.reason}")
    if not records:
        raise UserError(f"no OpenMP loop to measure in {path}")
    plan = [(r, list(variants_for(r))) for r in records]
    sweep = Sweep(Path(path), build, options, store, machine=machine, on_run=on_run)
    if on_plan is not None:
        on_plan(sum(sweep.planned_runs(vs) for r, vs in plan if r.tunable))
    results = [_measure_one(sweep, r, vs, strict) for r, vs in plan]
    return FileMeasurement(path, results, note, str(store.path))


def _measure_one(sweep: Sweep, record: LoopRecord, variants: list, strict: bool) -> LoopResult:
    try:
        return sweep.measure_loop(record, variants)
    except EmitError as exc:
        if strict:
            raise
        return LoopResult(
            record.id,
            None,
            mode=sweep.options.compile_mode,
            skipped=f"cannot write its variants: {exc}",
        )

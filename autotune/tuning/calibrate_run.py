"""Run a calibration: measure kernels on this machine, fit, adopt only what ranks better.

The orchestration behind ``autotune calibrate`` and ``Session.calibrate``: which
loops of which kernels, a reproducible sample of each loop's space, the runtime
micro-benchmarks, the sweeps, then ``calibrate.conclude`` (fit, score on
held-out kernels, adopt or keep). Nothing here parses arguments or prints.
"""

from __future__ import annotations

import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from autotune.analysis import analyze_file
from autotune.errors import UserError
from autotune.measure.build import BuildOptions
from autotune.measure.machine import Machine, detect_machine
from autotune.measure.microbench import run_microbenchmarks
from autotune.measure.store import Store
from autotune.measure.sweep import Sweep, SweepOptions
from autotune.tuning import calibrate as cal
from autotune.variants.space import default_space, default_thread_counts

REPO_KERNELS = Path(__file__).resolve().parents[2] / "kernels"


@dataclass
class CalibrateOptions:
    kernels: str | None = None  # folder of kernels (None: ./kernels, else the project's)
    sample: int = 10  # variants per loop (0: the whole default space)
    repetitions: int = 3
    run_timeout_s: float = 60.0
    microbench: bool = True
    force: bool = False  # adopt even if held-out ranking is worse
    cc: str = "gcc"
    # stop measuring kernels after this many seconds and fit on what was measured
    time_budget_s: float | None = None

    def validate(self) -> None:
        if self.sample < 0 or 0 < self.sample < cal.MIN_SAMPLE:
            raise UserError(
                f"--sample must be 0 (whole space) or at least {cal.MIN_SAMPLE}: fewer "
                "variants per loop cannot separate threads, chunks and schedules"
            )
        if self.time_budget_s is not None and self.time_budget_s <= 0:
            raise UserError("--time-budget must be a positive number of seconds")
        if self.run_timeout_s <= 0:
            raise UserError("--run-timeout must be positive")
        if self.repetitions < 1:
            raise UserError("--repetitions must be at least 1")


@dataclass
class CalibrationRun:
    result: cal.CalibrationResult
    machine: Machine
    skipped: list[str] = field(default_factory=list)  # kernels or loops left out, and why


def kernels_dir(arg: str | None) -> Path:
    for cand in [Path(arg)] if arg else [Path("kernels"), REPO_KERNELS]:
        if cand.is_dir() and any(cand.glob("*.c")):
            return cand
    raise UserError(f"no calibration kernels found in {arg or 'kernels/'}; pass --kernels DIR")


def plan_calibration(options: CalibrateOptions, machine: Machine, skipped: list[str]) -> list:
    """(file, loop record, sampled variants) for every tunable loop of the kernels."""
    plans = []
    for f in cal.kernel_files(kernels_dir(options.kernels)):
        try:
            unit = analyze_file(str(f), threads=machine.cores, cc=options.cc)
        except UserError as exc:
            skipped.append(f"{f}: {exc}")
            continue
        for r in unit.loops:
            if r.tunable:
                space = default_space(r, machine.cores)
                size = options.sample or len(space)
                plans.append((f, r, cal.sample_space(space, size, zlib.crc32(r.id.encode()))))
    return plans


def run_calibration(
    options: CalibrateOptions,
    store: Store,
    on_plan: Callable[[int], None] | None = None,
    on_step: Callable[[str], None] | None = None,
) -> CalibrationRun:
    """Measure, fit and decide; ``on_plan`` gets the number of steps, ``on_step`` a note
    after each run."""
    options.validate()
    started = time.monotonic()
    step = on_step or (lambda note: None)
    machine = detect_machine(options.cc)
    out = CalibrationRun(cal.CalibrationResult(), machine)
    plans = plan_calibration(options, machine, out.skipped)
    counts = default_thread_counts(machine.cores) if options.microbench else []
    if on_plan is not None:
        on_plan(sum((len(v) + 1) * options.repetitions for _, _, v in plans) + len(counts))
    if counts:
        try:
            out.result.profile = run_microbenchmarks(machine, counts, options.cc, on_step=step)
        except UserError as exc:
            out.skipped.append(f"{exc}; nominal runtime costs used")
    sweep_options = SweepOptions(
        repetitions=options.repetitions,
        baseline_timeout_s=options.run_timeout_s,
        timeout_floor_s=min(2.0, options.run_timeout_s),
    )
    for f, record, variants in plans:
        budget = options.time_budget_s
        spent = budget is not None and time.monotonic() - started > budget
        if spent and out.result.samples:  # the first kernel is measured whatever the budget
            out.skipped.append(
                f"{record.id}: not measured: the time budget ({budget:g} s, --time-budget) "
                "was spent"
            )
            continue
        sweep = Sweep(
            f, BuildOptions(cc=options.cc), sweep_options, store, machine=machine, on_run=step
        )
        try:
            res = sweep.measure_loop(record, variants)
        except UserError as exc:
            out.skipped.append(f"{record.id}: {exc}")
            continue
        out.result.samples += cal.samples_of(f.name, record, res, out.result)
    if not out.result.samples:
        raise UserError("no kernel could be measured: " + "; ".join(out.skipped[:3]))
    cal.conclude(out.result, machine, store, force=options.force)
    return out

"""Measure one loop's variants: build, run round-robin, verify, store, resume.

Order of work for one loop: the baseline (the original directives,
instrumented like the variants) runs first in every round, then repetition
``r`` of every variant, then round ``r + 1``, so slow drift of the machine
(thermal, other load) hits every variant alike. A variant that fails once
(compile error, crash, timeout, wrong output) is never run again: its
outcome is final and it can never be chosen. Every run is stored as soon as
it ends; a rerun of the same sweep skips what is stored.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from autotune import textfile
from autotune.errors import UserError
from autotune.measure import verify
from autotune.measure.build import COMPILE_MODES, BuildOptions, file_hash
from autotune.measure.loop_run import BASELINE_MODE, LoopRun, VariantRows
from autotune.measure.machine import Machine, detect_machine
from autotune.measure.outputmask import OutputMask
from autotune.measure.results import LoopResult, VariantResult
from autotune.measure.run import openmp_settings
from autotune.measure.store import RunContext, Store
from autotune.variants.space import BASELINE, Variant


@dataclass
class SweepOptions:
    repetitions: int = 3
    compile_mode: str = "runtime"
    check: str = "stdout"  # stdout | stderr | both | none
    rtol: float = verify.DEFAULT_RTOL
    atol: float = verify.DEFAULT_ATOL
    ignore_lines: list[str] = field(default_factory=list)  # regexes dropped before comparing
    timeout_factor: float = 20.0  # a variant this many times slower than the baseline is stopped
    timeout_floor_s: float = 2.0  # ... but never sooner than this
    baseline_timeout_s: float = 600.0
    spread_warn: float = 0.10
    run_args: list[str] = field(default_factory=list)  # the program's own arguments
    cwd: str | None = None
    stdin: str | None = None  # a file given to the program as its standard input
    fresh: bool = False  # forget stored runs of these variants and measure again
    expect_status: int = 0  # the original's exit status by design; every variant must match
    check_files: list[str] = field(default_factory=list)  # result files compared like stdout
    strict_verify: bool = False  # empty or unstable verification is an error, not a warning
    check_timings: bool = False  # compare the times and rates a program reports, too

    def validate(self) -> None:
        if self.repetitions < 1:
            raise UserError("--repetitions must be at least 1")
        if self.compile_mode not in COMPILE_MODES:
            raise UserError(f"--compile-mode must be one of {', '.join(COMPILE_MODES)}")
        if self.check not in verify.CHECK_MODES:
            raise UserError(f"--check must be one of {', '.join(verify.CHECK_MODES)}")
        if self.timeout_factor <= 1 or self.timeout_floor_s <= 0 or self.baseline_timeout_s <= 0:
            raise UserError("timeouts must be positive (and the factor above 1)")
        if not 0 <= self.expect_status <= 255:
            raise UserError("--expect-status must be an exit status, 0 to 255")
        if self.check_files and self.check == "none":
            raise UserError("--check-file compares result files: not with --check none")
        if self.check == "files" and not self.check_files:
            raise UserError("--check files compares result files: name them with --check-file")
        if self.rtol < 0 or self.atol < 0:
            raise UserError("--rtol and --atol must not be negative")
        for pat in self.ignore_lines:
            try:
                re.compile(pat)
            except re.error as exc:
                raise UserError(f"bad --check-ignore pattern {pat!r}: {exc}") from None


def run_flags(build: BuildOptions, options: SweepOptions) -> tuple[str, str]:
    """(JSON, key) of everything besides the source that makes two runs comparable."""
    flags = build.to_dict()
    flags["run_args"] = list(options.run_args)
    if options.stdin:  # what the program reads decides its runs, like its arguments
        flags["stdin"] = file_hash(Path(options.stdin))
    # a verdict (ok, wrong-output) holds only for the check that gave it
    flags["check"] = {
        "mode": options.check,
        "rtol": options.rtol,
        "atol": options.atol,
        "ignore": list(options.ignore_lines),
        "timings": "compared" if options.check_timings else "not compared",
    }
    if options.expect_status:  # a run's verdict depends on the status it must exit with
        flags["expect_status"] = options.expect_status
    if options.check_files:
        flags["check"]["files"] = list(options.check_files)
    if openmp := openmp_settings():  # OMP_NUM_THREADS=1 runs the original on one thread
        flags["openmp"] = openmp
    text = json.dumps(flags, sort_keys=True)
    return text, hashlib.sha256(text.encode()).hexdigest()[:16]


def _default_emitter() -> Any:
    try:
        from autotune.variants import emit
    except ImportError as exc:
        raise UserError(f"variant emission is not available: {exc}") from exc
    return emit


@runtime_checkable
class LoopMeasurer(Protocol):
    """What tuning asks of a measurer (``Sweep``; a scripted stand-in in tests): its
    declared options (repetitions, spread_warn), the time the model predicts
    (``target``: wall or cpu), the machine, and one call that measures a loop's
    variants together with the original."""

    options: SweepOptions
    target: str

    @property
    def machine(self) -> Machine: ...

    def measure_loop(
        self, record, variants: Sequence[Variant], repetitions: int | None = None
    ) -> LoopResult: ...


class Sweep:
    """Measures loops of one source file with one set of build options on this machine
    (a ``LoopMeasurer``)."""

    def __init__(
        self,
        path: str | Path,
        build: BuildOptions,
        options: SweepOptions,
        store: Store,
        *,
        machine: Machine | None = None,
        emitter: Any = None,
        on_run: Callable[[str], None] | None = None,
        target: str = "wall",
    ) -> None:
        """Declares what to measure; nothing is read, probed or stored until first asked
        (the source, the machine, the database rows naming them)."""
        options.validate()
        self.target = target  # what the ranking model predicts: wall or cpu time
        self.path = Path(path)
        self.build_options = build
        self.options = options
        self.store = store
        self._machine = machine
        self.emitter = emitter
        self.on_run = on_run or (lambda note: None)
        self.flags_json, self.flags_key = run_flags(build, options)
        # output lines dropped before outputs are compared (--check-ignore)
        self.ignore_patterns = [re.compile(p) for p in options.ignore_lines]
        # the times a program reports, and what differs between runs of its original
        self.output_mask = OutputMask(compare_timings=options.check_timings)
        self._freshened: set[tuple[str, str]] = set()  # (loop, variant) forgotten already
        self._own_binaries: set[str] = set()  # loops whose variants get binaries of their own

    @functools.cached_property
    def source(self) -> str:
        """The file's text as measured (read once)."""
        try:
            return textfile.read_bytes_text(self.path)
        except OSError as exc:
            raise UserError(f"cannot read: {exc.strerror or exc}", str(self.path)) from None

    @functools.cached_property
    def source_hash(self) -> str:
        return textfile.content_hash(self.source)

    @functools.cached_property
    def machine(self) -> Machine:
        """The machine given, else this one as the build's compiler sees it."""
        cc = self.build_options.cc
        return self._machine or detect_machine(cc.split()[0] if cc else "gcc")

    @functools.cached_property
    def machine_fp(self) -> str:
        """The machine's row in the database (the source's row written with it)."""
        fp = self.store.add_machine(self.machine)
        self.store.add_source(self.source_hash, str(self.path.resolve()))
        return fp

    # -- public -------------------------------------------------------------
    def planned_runs(self, variants: Sequence[Variant]) -> int:
        """Upper bound of runs for one loop (for a progress bar)."""
        return (len(_unique(variants)) + 1) * self.options.repetitions

    def measure_loop(
        self,
        record,  # a LoopRecord
        variants: Sequence[Variant],
        repetitions: int | None = None,
    ) -> LoopResult:
        """Sweep ``variants`` (baseline added) of ``record``; failures are results.
        ``repetitions``: runs of each this time (default: the options'), e.g. more to
        re-measure a near tie; stored runs count toward them."""
        opts = self.options
        reps = repetitions or opts.repetitions
        variants = _unique(variants)
        mode = loop_mode(opts.compile_mode, record)
        if record.key in self._own_binaries:
            mode = "per-variant"
        result = LoopResult(record.id, None, mode=mode)
        if not record.tunable:
            result.skipped = record.reason or "not tunable"
            return result
        if self.emitter is None:
            self.emitter = _default_emitter()
        machine_fp = self.machine_fp  # the machine's and the source's rows first
        self.store.add_loop(self.source_hash, record)
        self.store.add_variants(self.source_hash, record.key, [BASELINE, *variants])
        ctx = RunContext(machine_fp, self.source_hash, self.flags_key, record.key, mode)
        keys = [v.key for v in variants]
        if opts.fresh:  # once per variant in this sweep: a re-measurement adds to it
            forget = [k for k in ["baseline", *keys] if (record.key, k) not in self._freshened]
            self._freshened.update((record.key, k) for k in forget)
            if "baseline" in forget:
                self.store.delete_runs(ctx, ["baseline"], BASELINE_MODE)
            self.store.delete_runs(ctx, [k for k in forget if k != "baseline"], mode)
        states = {"baseline": VariantRows(BASELINE)}
        states.update({v.key: VariantRows(v) for v in variants})
        stored = self.store.stored_runs(ctx, ["baseline"], BASELINE_MODE)
        stored.update(self.store.stored_runs(ctx, keys))
        for (key, rep), row in stored.items():
            if rep < reps:
                states[key].rows[rep] = row
                states[key].resumed += 1
        run = LoopRun(self, record, ctx, result, states, reps)
        run.go()
        self._summarise(result, states, variants)
        return result

    def use_own_binaries(self, record) -> None:
        """Compile ``record``'s variants each with its own clauses from now on (the
        run-time selection build does not run the loop as the original does)."""
        self._own_binaries.add(record.key)

    # -- summary ------------------------------------------------------------
    def _summarise(
        self, result: LoopResult, states: dict[str, VariantRows], variants: list[Variant]
    ) -> None:
        base = states["baseline"]
        result.baseline = VariantResult.from_rows(BASELINE, list(base.rows.values()), base.resumed)
        if result.baseline.ok:
            result.baseline.speedup = 1.0
        result.runs_resumed = sum(s.resumed for s in states.values())
        for v in variants:
            st = states[v.key]
            vr = VariantResult.from_rows(v, list(st.rows.values()), st.resumed)
            if vr.measured_s and result.baseline.measured_s:
                vr.speedup = result.baseline.measured_s / vr.measured_s
            result.variants.append(vr)
        result.warnings = list(dict.fromkeys(result.warnings))
        noisy = [
            vr.label
            for vr in [result.baseline, *result.variants]
            if vr.spread is not None and vr.spread > self.options.spread_warn
        ]
        if noisy:
            result.warnings.append(
                f"large spread (> {self.options.spread_warn:.0%} of the median) for "
                f"{len(noisy)} variant(s) ({', '.join(noisy[:5])}"
                f"{', ...' if len(noisy) > 5 else ''}): timings are noisy, add --repetitions"
            )


def _unique(variants: Sequence[Variant]) -> list[Variant]:
    seen: dict[str, Variant] = {}
    for v in variants:
        if not v.is_baseline:
            seen.setdefault(v.key, v)
    return list(seen.values())


def measure_loop(
    path: str | Path,
    record,
    variants: Sequence[Variant],
    *,
    build: BuildOptions | None = None,
    options: SweepOptions | None = None,
    store: Store | None = None,
    emitter: Any = None,
) -> LoopResult:
    """One-call form of :class:`Sweep` for one loop (store: the default database)."""
    own = store is None
    store = store or Store()
    try:
        sweep = Sweep(
            path, build or BuildOptions(), options or SweepOptions(), store, emitter=emitter
        )
        return sweep.measure_loop(record, variants)
    finally:
        if own:
            store.close()


def loop_mode(requested: str, record) -> str:  # a LoopRecord
    """The compile mode a loop is measured in: run-time selection only where the
    program cannot override it and the schedule may change."""
    return "per-variant" if getattr(record, "own_binaries", False) else requested

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

import hashlib
import inspect
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autotune import textfile
from autotune.errors import UserError
from autotune.measure import verify
from autotune.measure.build import BuildOptions, BuildResult, file_hash
from autotune.measure.machine import Machine, detect_machine
from autotune.measure.results import LoopResult, VariantResult
from autotune.measure.run import RunResult, run_program
from autotune.measure.store import RunContext, RunRow, Store
from autotune.variants.space import BASELINE, Variant

COMPILE_MODES = ("runtime", "per-variant")
BASELINE_MODE = "per-variant"  # the baseline is its own binary in both modes: shared rows


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

    def validate(self) -> None:
        if self.repetitions < 1:
            raise UserError("--repetitions must be at least 1")
        if self.compile_mode not in COMPILE_MODES:
            raise UserError(f"--compile-mode must be one of {', '.join(COMPILE_MODES)}")
        if self.check not in verify.CHECK_MODES:
            raise UserError(f"--check must be one of {', '.join(verify.CHECK_MODES)}")
        if self.timeout_factor <= 1 or self.timeout_floor_s <= 0 or self.baseline_timeout_s <= 0:
            raise UserError("timeouts must be positive (and the factor above 1)")
        if self.rtol < 0 or self.atol < 0:
            raise UserError("--rtol and --atol must not be negative")
        for pat in self.ignore_lines:
            try:
                re.compile(pat)
            except re.error as exc:
                raise UserError(f"bad --check-ignore pattern {pat!r}: {exc}") from None


def _default_emitter() -> Any:
    try:
        from autotune.variants import emit
    except ImportError as exc:
        raise UserError(f"variant emission is not available: {exc}") from exc
    return emit


@dataclass
class _State:
    """One variant's rows during a sweep."""

    variant: Variant
    rows: dict[int, RunRow] = field(default_factory=dict)
    resumed: int = 0

    @property
    def failed(self) -> bool:
        return any(r.status != "ok" for r in self.rows.values())


class Sweep:
    """Measures loops of one source file with one set of build options on this machine."""

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
    ) -> None:
        options.validate()
        self.path = Path(path)
        try:
            self.source = textfile.read_bytes_text(self.path)
        except OSError as exc:
            raise UserError(f"cannot read: {exc.strerror or exc}", str(path)) from None
        self.build_options = build
        self.options = options
        self.store = store
        self.machine = machine or detect_machine(build.cc.split()[0] if build.cc else "gcc")
        self.emitter = emitter
        self.on_run = on_run or (lambda note: None)
        self.source_hash = textfile.content_hash(self.source)
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
        }
        self.flags_json = json.dumps(flags, sort_keys=True)
        self.flags_key = hashlib.sha256(self.flags_json.encode()).hexdigest()[:16]
        self.machine_fp = store.add_machine(self.machine)
        store.add_source(self.source_hash, str(self.path.resolve()))
        self._ignore = [re.compile(p) for p in options.ignore_lines]
        self._freshened: set[tuple[str, str]] = set()  # (loop, variant) forgotten already

    # -- public -------------------------------------------------------------
    def planned_runs(self, variants: Sequence[Variant]) -> int:
        """Upper bound of runs for one loop (for a progress bar)."""
        return (len(_unique(variants)) + 1) * self.options.repetitions

    def measure_loop(self, record, variants: Sequence[Variant]) -> LoopResult:  # noqa: ANN001
        """Sweep ``variants`` (baseline added) of ``record``; failures are results."""
        opts = self.options
        variants = _unique(variants)
        result = LoopResult(record.id, None, mode=opts.compile_mode)
        if not record.tunable:
            result.skipped = record.reason or "not tunable"
            return result
        if self.emitter is None:
            self.emitter = _default_emitter()
        self.store.add_loop(self.source_hash, record)
        self.store.add_variants(self.source_hash, record.key, [BASELINE, *variants])
        ctx = RunContext(
            self.machine_fp, self.source_hash, self.flags_key, record.key, opts.compile_mode
        )
        keys = [v.key for v in variants]
        if opts.fresh:  # once per variant in this sweep: a re-measurement adds to it
            forget = [k for k in ["baseline", *keys] if (record.key, k) not in self._freshened]
            self._freshened.update((record.key, k) for k in forget)
            if "baseline" in forget:
                self.store.delete_runs(ctx, ["baseline"], BASELINE_MODE)
            self.store.delete_runs(ctx, [k for k in forget if k != "baseline"], opts.compile_mode)
        states = {"baseline": _State(BASELINE)}
        states.update({v.key: _State(v) for v in variants})
        stored = self.store.stored_runs(ctx, ["baseline"], BASELINE_MODE)
        stored.update(self.store.stored_runs(ctx, keys))
        for (key, rep), row in stored.items():
            if rep < opts.repetitions:
                states[key].rows[rep] = row
                states[key].resumed += 1
        run = _LoopRun(self, record, ctx, result, states)
        run.go()
        self._summarise(result, states, variants)
        return result

    # -- summary ------------------------------------------------------------
    def _summarise(
        self, result: LoopResult, states: dict[str, _State], variants: list[Variant]
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
            vr.key
            for vr in [result.baseline, *result.variants]
            if vr.spread is not None and vr.spread > self.options.spread_warn
        ]
        if noisy:
            result.warnings.append(
                f"large spread (> {self.options.spread_warn:.0%} of the median) for "
                f"{len(noisy)} variant(s) ({', '.join(noisy[:5])}"
                f"{', ...' if len(noisy) > 5 else ''}): timings are noisy, add --repetitions"
            )


class _LoopRun:
    """The mutable work of one loop's sweep: binaries, reference output, timeouts."""

    def __init__(
        self,
        sweep: Sweep,
        record,
        ctx: RunContext,
        result: LoopResult,  # noqa: ANN001
        states: dict[str, _State],
    ) -> None:
        self.sweep, self.record, self.ctx, self.result, self.states = (
            sweep,
            record,
            ctx,
            result,
            states,
        )
        self.opts = sweep.options
        self.binaries: dict[str, BuildResult] = {}
        self.reference: tuple[str, str] | None = None
        self.baseline_wall: float | None = None
        self.warned_unstable = False
        base_ok = [r for r in states["baseline"].rows.values() if r.status == "ok"]
        if base_ok:
            self.baseline_wall = max(r.wall_s or 0.0 for r in base_ok)
            first = min(base_ok, key=lambda r: r.repetition)
            out, err = (
                sweep.store.get_output(first.stdout_sha),
                sweep.store.get_output(first.stderr_sha),
            )
            if out is not None and err is not None:
                self.reference = (out, err)

    def go(self) -> None:
        order = [self.states["baseline"]] + [s for k, s in self.states.items() if k != "baseline"]
        for rep in range(self.opts.repetitions):
            for st in order:
                if st.failed or rep in st.rows:
                    self.sweep.on_run(st.variant.key)
                    continue
                if st.variant.is_baseline:
                    row = self._run_baseline(rep)
                else:
                    row = self._run_variant(st.variant, rep)
                st.rows[rep] = row
                self.result.runs_measured += 1
                self.sweep.on_run(st.variant.key)
        self.result.binaries = len(self.binaries)

    # -- builds -------------------------------------------------------------
    def _binary(self, name: str, text_fn: Callable[[], str]) -> BuildResult:
        if name not in self.binaries:
            sw = self.sweep
            hint = f"{sw.path.stem}-{self.record.line}-{name}"
            res = sw.build_options.build(text_fn(), name_hint=hint, source_path=sw.path)
            if not res.cached:
                self.result.compiles += 1
            self.binaries[name] = res
        return self.binaries[name]

    # -- runs ---------------------------------------------------------------
    def _row(
        self,
        variant: Variant,
        rep: int,
        mode: str,
        status: str,
        message: str,
        res: RunResult | None = None,
    ) -> RunRow:
        sw = self.sweep
        row = RunRow(
            sw.machine_fp,
            sw.source_hash,
            sw.flags_key,
            sw.flags_json,
            self.record.key,
            variant.key,
            mode,
            rep,
            status,
            message,
        )
        if res is not None:
            row.wall_s, row.loop_wall_s, row.loop_cpu_s = (
                res.wall_s,
                res.loop_wall_s,
                res.loop_cpu_s,
            )
            row.executions, row.returncode = res.executions, res.returncode
        return row

    def _execute(self, exe: Path, env: dict[str, str], timeout: float) -> RunResult:
        return run_program(
            exe,
            env=env,
            timeout_s=timeout,
            cwd=self.opts.cwd,
            stdin=self.opts.stdin,
            loop_id=self.record.id,
            args=self.opts.run_args,
        )

    def _baseline_once(self) -> tuple[RunResult, Path]:
        """Build (cached) and run the original program once; a build failure is fatal."""
        em, sw = self.sweep.emitter, self.sweep
        build = self._binary("baseline", lambda: em.emit_variant(sw.source, self.record, BASELINE))
        if not build.ok:
            self._explain_baseline_failure(build)
        return self._execute(build.exe_path, {}, self.opts.baseline_timeout_s), build.exe_path

    def _run_baseline(self, rep: int) -> RunRow:
        sw = self.sweep
        res, exe = self._baseline_once()
        if res.status != "ok":
            what = "timed out" if res.status == "timeout" else "crashed"
            raise UserError(
                f"the original program {what} ({res.message}); "
                f"command: {exe} {' '.join(self.opts.run_args)}".rstrip(),
                location=str(sw.path),
            )
        row = self._row(BASELINE, rep, BASELINE_MODE, "ok", res.message, res)
        row.stdout_sha = sw.store.put_output(res.stdout)
        row.stderr_sha = sw.store.put_output(res.stderr)
        sw.store.add_run(row, replace=True)
        self.baseline_wall = max(self.baseline_wall or 0.0, res.wall_s)
        if self.reference is None:
            self.reference = (res.stdout, res.stderr)
        elif not self.warned_unstable and self.opts.check != "none":
            same, diff = self._compare(res.stdout, res.stderr)
            if not same:
                self.warned_unstable = True
                self.result.warnings.append(
                    f"the original program's output differs between runs ({diff}); "
                    "verification will reject variants: use --check-ignore or --check none"
                )
        if res.loop_wall_s is None:
            self.result.warnings.append(
                f"loop {self.record.id} reported no timing (not executed?): whole-process time used"
            )
        return row

    def _explain_baseline_failure(self, build: BuildResult) -> None:
        """The original program or its instrumentation does not compile: UserError."""
        sw = self.sweep
        plain = sw.build_options.build(
            sw.source, name_hint=f"{sw.path.stem}-original", source_path=sw.path
        )
        if not plain.ok:
            raise UserError(
                f"the original program does not compile: {plain.command}: {plain.first_line}"
            )
        raise UserError(
            f"the instrumented original does not compile (an emission problem): "
            f"{build.command}: {build.first_line}"
        )

    def _ensure_reference(self) -> None:
        """A resumed sweep whose baseline output was lost: run the baseline once, unstored."""
        if self.reference is not None:
            return
        sw = self.sweep
        res, _ = self._baseline_once()
        if res.status != "ok":
            raise UserError(f"the original program failed: {res.message}", str(sw.path))
        self.reference = (res.stdout, res.stderr)
        self.baseline_wall = max(self.baseline_wall or 0.0, res.wall_s)

    def _variant_binary(self, variant: Variant) -> tuple[BuildResult | None, dict, str]:
        """(build, env, error) for one variant in the sweep's compile mode."""
        em, sw = self.sweep.emitter, self.sweep
        try:
            if self.opts.compile_mode == "runtime":
                env = self._runtime_env(variant)
                if env is not None:
                    build = self._binary("runtime", lambda: em.emit_runtime(sw.source, self.record))
                    return build, env, ""
            key = re.sub(r"[^A-Za-z0-9]+", "_", variant.key)
            build = self._binary(key, lambda: em.emit_variant(sw.source, self.record, variant))
            return build, {}, ""
        except UserError as exc:  # EmitError: this variant cannot be written
            return None, {}, f"cannot emit the variant: {exc}"

    def _runtime_env(self, variant: Variant) -> dict[str, str] | None:
        """Environment that makes the runtime program this variant; None: build it alone.

        The record is passed when the emitter accepts it, so a variant keeping the
        written schedule gets it reproduced; a schedule the environment cannot
        express (EmitError) falls back to a binary of its own.
        """
        em = self.sweep.emitter
        try:
            if "record" in inspect.signature(em.runtime_env).parameters:
                return dict(em.runtime_env(variant, record=self.record))
            return dict(em.runtime_env(variant))
        except UserError:
            return None

    def _run_variant(self, variant: Variant, rep: int) -> RunRow:
        sw, mode = self.sweep, self.opts.compile_mode
        self._ensure_reference()
        build, env, err = self._variant_binary(variant)
        if build is None or not build.ok:
            msg = err or build.message
            row = self._row(variant, rep, mode, "compile-error", msg[:4000])
            sw.store.add_run(row, replace=True)
            return row
        timeout = max(
            self.opts.timeout_factor * (self.baseline_wall or 0.0), self.opts.timeout_floor_s
        )
        res = self._execute(build.exe_path, env, timeout)
        status, message = res.status, res.message
        if status == "timeout":
            message = (
                f"stopped after {timeout:.3g} s (over {self.opts.timeout_factor:g}x the "
                f"original's {self.baseline_wall or 0.0:.3g} s)"
            )
        elif status == "ok" and self.opts.check != "none":
            same, diff = self._compare(res.stdout, res.stderr)
            if not same:
                status, message = "wrong-output", f"{self.opts.check} differs: {diff}"
        row = self._row(variant, rep, mode, status, message, res)
        sw.store.add_run(row, replace=True)
        return row

    def _compare(self, stdout: str, stderr: str) -> tuple[bool, str]:
        assert self.reference is not None  # set by the baseline before any variant runs
        o = self.opts
        ref = verify.select_output(*self.reference, o.check)
        got = verify.select_output(stdout, stderr, o.check)
        ignore = self.sweep._ignore
        return verify.compare_outputs(
            verify.drop_lines(ref, ignore), verify.drop_lines(got, ignore), o.rtol, o.atol
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
    *,  # noqa: ANN001
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

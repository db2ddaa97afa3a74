"""The work of one loop's sweep: build the binaries, run round-robin, verify, store.

``Sweep.measure_loop`` (sweep.py) sets up the rows to resume and hands them here.
"""

from __future__ import annotations

import inspect
import re
import shlex
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autotune.errors import EnvironmentFault, UserError
from autotune.measure import verify
from autotune.measure.build import BuildResult
from autotune.measure.outputmask import NOT_COMPARED
from autotune.measure.results import LoopResult
from autotune.measure.run import RunResult, run_program
from autotune.measure.store import RunContext, RunRow
from autotune.variants.space import BASELINE, Variant

BASELINE_MODE = "per-variant"  # the baseline is its own binary in both modes: shared rows


STORED_NOTE = "(stored)"  # the note of a run read from the database, not measured now
PROCESS_STARTED = time.time()  # a stored run made before it was measured by another command


@dataclass
class VariantRows:
    """One variant's rows during a sweep."""

    variant: Variant
    rows: dict[int, RunRow] = field(default_factory=dict)
    resumed: int = 0

    @property
    def failed(self) -> bool:
        return any(r.status != "ok" for r in self.rows.values())


class LoopRun:
    """The mutable work of one loop's sweep: binaries, reference output, timeouts."""

    def __init__(
        self,
        sweep: Any,  # the Sweep that owns this run (sweep.py imports this module)
        record,
        ctx: RunContext,
        result: LoopResult,
        states: dict[str, VariantRows],
        repetitions: int,
    ) -> None:
        self.sweep, self.record, self.ctx, self.result, self.states = (
            sweep,
            record,
            ctx,
            result,
            states,
        )
        self.opts = sweep.options
        self.repetitions = repetitions  # runs of each variant in this sweep
        self.mode = result.mode  # the sweep's compile mode, or per-variant for this loop
        self.binaries: dict[str, BuildResult] = {}
        self.reference: tuple[str, str] | None = None
        self.baseline_wall: float | None = None
        self.warned_unstable = False
        self.stability_checked = False
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
        for rep in range(self.repetitions):
            for st in order:
                if st.failed or rep in st.rows:
                    row = st.rows.get(rep)
                    before = row is not None and 0 < row.created < PROCESS_STARTED
                    self.sweep.on_run(
                        f"{st.variant.key} {STORED_NOTE}" if before else st.variant.key
                    )
                    continue
                if st.variant.is_baseline:
                    row = self._run_baseline(rep)
                else:
                    row = self._run_variant(st.variant, rep)
                st.rows[rep] = row
                self.result.runs_measured += 1
                self.sweep.on_run(st.variant.key)
        self.result.binaries = len(self.binaries)
        self._note_mask()

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
            expect_status=self.opts.expect_status,
            check_files=self.opts.check_files,
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
            self._warn_if_nothing_to_compare()
        elif not self.warned_unstable and self.opts.check != "none":
            self._learn(res)
            same, diff = self._compare(res.stdout, res.stderr)
            if not same:
                self.warned_unstable = True
                self._say_unstable(diff)
        if res.loop_wall_s is None:
            self.result.warnings.append(
                f"loop {self.record.id} reported no timing (not executed?): whole-process time used"
            )
        return row

    def _check_original_stable(self) -> bool:
        """A variant's output differs: run the original once more (unstored, once per
        loop), so output that changes from run to run (a clock seed, a printed time) is
        said for what it is, not blamed on the variants. Even when two of its outputs
        agreed: a program seeded by time(0) prints the same within one second, and the
        variant ran in a later one (Rodinia particlefilter). True when the run taught the
        mask something, or showed the original unstable (compare the variant again)."""
        mask = self.sweep.output_mask
        if self.stability_checked or self.reference is None or mask.unstable:
            return False
        self.stability_checked = True
        res, _ = self._baseline_once()
        if res.status != "ok":
            return False
        before = mask.learned()
        self._learn(res)
        same, diff = self._compare(res.stdout, res.stderr)
        if not same and not self.warned_unstable:
            self.warned_unstable = True
            self._say_unstable(diff)
        return mask.learned() != before or mask.unstable

    def _checked(self, stdout: str, stderr: str) -> str:
        return verify.checked_output(stdout, stderr, self.opts.check, self.sweep.ignore_patterns)

    def _learn(self, res: RunResult) -> None:
        """Another run of the original: note which of its numbers change between runs."""
        if self.reference is not None:
            self.sweep.output_mask.learn(
                self._checked(*self.reference), self._checked(res.stdout, res.stderr)
            )

    def _note_mask(self) -> None:
        """Say what the comparisons left out, when any variant was compared."""
        compared = any(s.rows for k, s in self.states.items() if k != "baseline")
        if self.reference is None or not compared or self.opts.check == "none":
            return
        note = self.sweep.output_mask.note(self._checked(*self.reference))
        kept = [w for w in self.result.warnings if not w.startswith(NOT_COMPARED)]
        self.result.warnings = kept + ([note] if note else [])

    def _say_unstable(self, diff: str) -> None:
        self.sweep.output_mask.unstable = True  # for every loop of the program
        lines = []
        if self.reference is not None:
            lines = self.sweep.output_mask.unstable_lines(self._checked(*self.reference))
        text = _unstable_text(diff, lines)
        if self.opts.strict_verify:
            raise UserError(text + " (--strict-verify)", str(self.sweep.path))
        self.result.warnings.append(text)

    def _warn_if_nothing_to_compare(self) -> None:
        """Verification that compares nothing is said, not passed silently."""
        o = self.opts
        if o.check == "none" or self.reference is None:
            return
        if not self._checked(*self.reference).strip():
            why = (
                f"verification is empty: the original prints nothing on {o.check} (after "
                "--check-ignore) and no --check-file names a result it writes, so a "
                "variant is only checked to run and exit as the original does"
            )
            if o.strict_verify:
                raise UserError(why + " (--strict-verify)", str(self.sweep.path))
            self.result.warnings.append(why)

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
            if self.mode == "runtime":
                env = self._runtime_env(variant)
                if env is not None:
                    build = self._binary("runtime", lambda: em.emit_runtime(sw.source, self.record))
                    return build, env, ""
            key = re.sub(r"[^A-Za-z0-9]+", "_", variant.key)
            build = self._binary(key, lambda: em.emit_variant(sw.source, self.record, variant))
            return build, {}, ""
        except EnvironmentFault:  # the machine failed: not this variant's result
            raise
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
        sw, mode = self.sweep, self.mode
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
            if not same and self._check_original_stable():
                same, diff = self._compare(res.stdout, res.stderr)
            if not same and self.sweep.output_mask.unstable:
                # the original's own runs differ: a difference proves nothing of the variant
                status = "not-verified"
                message = f"the original's output differs between its own runs; {diff}"
            elif not same:
                status, message = "wrong-output", f"{self.opts.check} differs: {diff}"
        row = self._row(variant, rep, mode, status, message, res)
        sw.store.add_run(row, replace=True)
        return row

    def _compare(self, stdout: str, stderr: str) -> tuple[bool, str]:
        if self.reference is None:  # set by the baseline before any variant runs
            raise RuntimeError("a variant was verified before the original ran")
        o, mask = self.opts, self.sweep.output_mask
        return mask.compare(
            self._checked(*self.reference),
            self._checked(stdout, stderr),
            o.rtol,
            o.atol,
            tolerant=bool(self.record.reassociates),
        )


def _unstable_text(diff: str, lines: list[str]) -> str:
    """The original is unstable: where, and the --check-ignore patterns for every line
    that changes between its runs (``lines``), not only the first."""
    shown = "; ".join(repr(ln) for ln in lines[:4]) + (" ..." if len(lines) > 4 else "")
    where = f"; lines that change: {shown}" if lines else ""
    return (
        f"the original program's output differs between runs ({diff}{where}); "
        f"no variant can be verified against it: use {_ignore_hint(lines)} or --check none"
    )


def _ignore_hint(lines: list[str]) -> str:
    """--check-ignore with a pattern for each line that changes, when its first word is
    text ('XE: 64.499214' gives --check-ignore '^XE:')."""
    firsts = [ln.split()[0] if ln.split() else "" for ln in lines]
    named = [w for w in dict.fromkeys(firsts) if w and not any(c.isdigit() for c in w)]
    hint = " ".join(f"--check-ignore {shlex.quote('^' + re.escape(w))}" for w in named)
    bare = [ln for ln, w in zip(lines, firsts, strict=True) if w not in named]
    if not named:
        return "--check-ignore REGEX"
    return hint + (f" (and a REGEX for lines like {bare[0]!r})" if bare else "")

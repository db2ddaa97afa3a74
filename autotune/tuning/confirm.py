"""Confirm a tuned program as it would ship: built plain, run whole, against the original.

Per-loop measurements use instrumented builds (a barrier before each timed
loop, threads warmed before ``main``), so a race between two loops cannot
show there, and a loop's gain says nothing about the rest of its region.
Before any choice is applied or stored, the program with every chosen
variant applied is built exactly as it would be applied (no
instrumentation), run with the user's arguments, interleaved with the plain
original, and checked:

- every run's output must match the original's (the sweep's check options);
- the whole program must be faster beyond the noise (the same margin as a
  loop's choice).

When it is not, the choices are backed off one loop at a time, the one that
promised least first, and the smaller set is tried again. What is left (maybe
nothing) is the decision.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from autotune.errors import UserError
from autotune.frontend.records import LoopRecord
from autotune.measure import verify
from autotune.measure.build import BuildOptions, BuildResult
from autotune.measure.intervals import (
    MARGIN,
    RatioInterval,
    difference_interval,
    ratio_interval,
)
from autotune.measure.machine_state import Load, LoadWatch
from autotune.measure.outputmask import OutputMask
from autotune.measure.run import RunResult, run_program
from autotune.measure.sweep import SweepOptions
from autotune.variants.apply import apply_variants
from autotune.variants.space import Variant

MIN_GAIN = 0.03  # as for a loop: a tuned program must be at least 3% faster ...
NOISE_SHARE = 0.5  # ... and by half the larger interquartile spread of the two
DEFAULT_RUNS = 5
BUSY_WHY = "the machine was busy"  # a choice held back for the load, not decided


@dataclass
class Choice:
    """One loop's chosen variant and the time per program run it promised to save."""

    record: LoopRecord
    variant: Variant
    saving_s: float = 0.0
    # the saving's 95% interval from the loop's own runs (None: fewer than two runs)
    saving_range: tuple[float, float] | None = None


@dataclass
class ProgramRuns:
    """Whole-program runs of one build."""

    times_s: list[float] = field(default_factory=list)
    status: str = "ok"  # ok | wrong-output | not-verified | crash | timeout | compile-error
    message: str = ""

    @property
    def median_s(self) -> float | None:
        return float(np.median(self.times_s)) if self.times_s else None

    @property
    def spread(self) -> float:
        """Interquartile range over the median (robust to one slow run)."""
        if len(self.times_s) < 2 or not self.median_s:
            return 0.0
        q25, q75 = np.percentile(self.times_s, [25, 75])
        return float((q75 - q25) / self.median_s)

    def to_dict(self) -> dict:
        return {
            "median_s": self.median_s,
            "times_s": list(self.times_s),
            "status": self.status,
            "message": self.message,
        }


@dataclass
class Confirmation:
    """The whole-program verdict on a set of per-loop choices."""

    original: ProgramRuns
    tuned: ProgramRuns | None = None  # the runs of the set finally kept (None: nothing kept)
    kept: list[Choice] = field(default_factory=list)
    backed_off: list[tuple[str, str]] = field(default_factory=list)  # (loop id, why)
    tries: list[tuple[list[str], ProgramRuns]] = field(default_factory=list)
    decision: str = ""
    decided: tuple[float, float] | None = None  # (original, tuned) medians when accepted
    interval: RatioInterval | None = None  # of original over tuned, when accepted
    load: Load | None = None  # what other processes did while the program ran
    busy: str = ""  # why the machine was too busy to decide ('' when quiet)
    # loop id -> why its own timings disagree with what the whole program showed
    disagree: dict[str, str] = field(default_factory=dict)
    # every set tried: what its loops' own timings promised against what the program saved
    agreement: list[dict] = field(default_factory=list)

    @property
    def speedup(self) -> float | None:
        """Original over tuned median at the moment the tuned set was accepted (later
        steps add original runs to interleave with; they do not change this verdict)."""
        if self.tuned is None or self.decided is None:
            return None
        return self.decided[0] / self.decided[1]

    def summary(self, regions: Sequence[str] = ()) -> dict:
        """The check as the report shows it: decision, interval, load; ``regions``: the
        decisions of the regions' thread counts."""
        return {
            "decision": self.decision,
            "speedup": self.speedup,
            "speedup_interval": self.interval.to_dict() if self.interval else None,
            "busy": self.busy,
            "load": self.load.to_dict() if self.load else None,
            "regions": list(regions),
        }

    def to_dict(self) -> dict:
        return {
            "original": self.original.to_dict(),
            "tuned": self.tuned.to_dict() if self.tuned else None,
            "speedup": self.speedup,
            "speedup_interval": self.interval.to_dict() if self.interval else None,
            "load": self.load.to_dict() if self.load else None,
            "busy": self.busy,
            "loop_figures_disagree": dict(self.disagree),
            "agreement": list(self.agreement),
            "kept": [c.record.id for c in self.kept],
            "backed_off": [{"loop": lid, "why": why} for lid, why in self.backed_off],
            "tries": [{"loops": ids, **runs.to_dict()} for ids, runs in self.tries],
            "decision": self.decision,
        }


def _not_shown(iv: RatioInterval | None) -> str:
    """Why a whole-program speedup was not taken, with its interval."""
    if iv is None:
        return "too few whole-program runs to tell"
    if iv.slower():
        return f"the program with it ran {iv.text()} as fast as the original: slower"
    return (
        f"the program with it ran {iv.text()} as fast as the original: within the noise "
        f"(the interval must clear {1 + MARGIN:.2f}x)"
    )


def _outputs_said(active: list[Choice], masked: bool = False) -> str:
    """How the outputs were compared, in words (``masked``: the times the program
    reports were left out)."""
    notes = [c.record.id for c in active if c.record.reassociates]
    but = " but for the times the program reports" if masked else ""
    if notes:
        return (
            f"outputs equal{but}, floating-point numbers within the tolerance because "
            f"{', '.join(notes)} reassociate{'s' if len(notes) == 1 else ''} a reduction"
        )
    return f"outputs identical{but}"


def required_gain(a: ProgramRuns, b: ProgramRuns) -> float:
    return max(MIN_GAIN, NOISE_SHARE * max(a.spread, b.spread))


class ProgramCheck:
    """Builds and runs whole programs for one source file and one set of options."""

    def __init__(
        self,
        path: str | Path,
        source: str,
        build: BuildOptions,
        options: SweepOptions,
        runs: int = DEFAULT_RUNS,
        on_run: Callable[[str], None] | None = None,
        allow_busy: bool = False,
    ) -> None:
        self.allow_busy = allow_busy  # ship a decision taken while others loaded the machine
        self.path, self.source, self.build_options, self.options = (
            Path(path),
            source,
            build,
            options,
        )
        self.runs = max(1, runs)
        self.on_run = on_run or (lambda note: None)
        self._ignore = [re.compile(p) for p in options.ignore_lines]
        self.mask = OutputMask(compare_timings=options.check_timings)
        self.reference: tuple[str, str] | None = None

    def _build(self, text: str, name: str) -> BuildResult:
        return self.build_options.build(
            text, name_hint=f"{self.path.stem}-whole-{name}", source_path=self.path
        )

    def _run(self, exe: Path, timeout: float) -> RunResult:
        return run_program(
            exe,
            timeout_s=timeout,
            cwd=self.options.cwd,
            args=self.options.run_args,
            stdin=self.options.stdin,
            expect_status=self.options.expect_status,
            check_files=self.options.check_files,
        )

    def _checked(self, stdout: str, stderr: str) -> str:
        return verify.checked_output(stdout, stderr, self.options.check, self._ignore)

    def _same(self, res: RunResult, tolerant: bool = False) -> tuple[bool, str]:
        if self.options.check == "none" or self.reference is None:
            return True, ""
        o = self.options
        return self.mask.compare(
            self._checked(*self.reference),
            self._checked(res.stdout, res.stderr),
            o.rtol,
            o.atol,
            tolerant=tolerant,
        )

    def _learn(self, res: RunResult) -> None:
        """Another run of the original: which of its numbers change between runs."""
        if self.reference is not None and self.options.check != "none":
            self.mask.learn(self._checked(*self.reference), self._checked(res.stdout, res.stderr))

    def _same_tuned(self, res: RunResult, tolerant: bool, original: BuildResult):
        """A tuned run's output against the original's. When it differs, the original
        runs once more first (its output alone: no time is kept), so a number that
        changes between the original's own runs is not blamed on the tuned program; also
        after two of its runs agreed, as a program seeded by time(0) prints the same
        within one second."""
        same, diff = self._same(res, tolerant)
        if same or self.mask.unstable:
            return same, diff
        again = self._run(original.exe_path, self.options.baseline_timeout_s)
        if again.status == "ok":
            self._learn(again)
            if not self._same(again)[0]:
                self.mask.unstable = True  # its own runs differ: nothing can be verified
            return self._same(res, tolerant)
        return same, diff

    def mask_note(self) -> str | None:
        """What the comparisons left out, for the report (None: nothing)."""
        if self.reference is None or self.options.check == "none":
            return None
        return self.mask.note(self._checked(*self.reference))

    def original_build(self) -> BuildResult:
        original = self._build(self.source, "original")
        if not original.ok:
            raise UserError(
                f"the original program does not compile: {original.command}: {original.first_line}",
                str(self.path),
            )
        return original

    def confirm(self, choices: list[Choice]) -> Confirmation:
        """Try ``choices``, then fewer of them, until one set is verified and faster;
        a set found faster while other processes loaded the machine is not kept (unless
        ``allow_busy``), and the load is recorded with the decision either way."""
        original = self.original_build()
        result = Confirmation(ProgramRuns())
        if not choices:
            result.decision = "no loop variant to confirm"
            return result
        watch = LoadWatch().start()
        self._confirm(original, choices, result)
        result.load = watch.stop()
        busy = result.load.busy() if result.load is not None else ""
        if busy and result.tuned is not None:
            result.busy = busy
            if not self.allow_busy:
                result.decision = (
                    f"the machine was busy: {busy}; the tuned program measured "
                    f"{result.interval.text() if result.interval else 'faster'}, but a gain "
                    "seen under a passing load is not shipped: the original is kept (run "
                    "again on a quiet machine, or pass --allow-busy)"
                )
                result.backed_off += [(c.record.id, f"{BUSY_WHY}: {busy}") for c in result.kept]
                result.tuned, result.kept, result.decided = None, [], None
            else:
                result.decision += f" (kept although the machine was busy: {busy})"
        return result

    def _confirm(self, original: BuildResult, choices: list[Choice], result: Confirmation) -> None:
        active = sorted(choices, key=lambda c: c.saving_s, reverse=True)
        while active:
            ids = [c.record.id for c in active]
            first = len(result.original.times_s)
            runs = self.try_choices(
                original, [(c.record, c.variant) for c in active], result.original
            )
            result.tries.append((ids, runs))
            if result.original.status != "ok":
                result.backed_off += [(c.record.id, runs.message) for c in active]
                break
            if runs.status == "ok" and runs.median_s and result.original.median_s:
                # the original's runs interleaved with this try: the same machine state
                paired = result.original.times_s[first:]
                self._agreement(active, paired, runs, result)
                iv = ratio_interval(paired, runs.times_s)
                if iv is not None and iv.faster():
                    result.tuned, result.kept = runs, list(active)
                    result.decided = (float(np.median(paired)), runs.median_s)
                    result.interval = iv
                    result.decision = (
                        f"the tuned program is {iv.text()} faster than the original as a "
                        f"whole ({len(runs.times_s)} interleaved runs each, "
                        f"{_outputs_said(active, self.mask_note() is not None)})"
                    )
                    return
                why = _not_shown(iv)
            else:
                why = f"the program built with it: {runs.status} ({runs.message})"
            dropped = active.pop()
            result.backed_off.append((dropped.record.id, why))
        result.decision = "no tuned version of the program was verified faster: original kept"
        if result.original.status != "ok":
            result.decision = (
                f"the original program {result.original.status}: {result.original.message}"
            )

    def _agreement(
        self, active: list[Choice], paired: list[float], runs: ProgramRuns, result: Confirmation
    ) -> None:
        """Do the loops' own timings agree with the program? The interval of the saving
        they promise (per run of the program) must meet the interval of the saving
        measured on the whole program; when it does not, their figures are not trusted."""
        promised = sum(c.saving_s for c in active)
        p_low = sum((c.saving_range or (c.saving_s, c.saving_s))[0] for c in active)
        p_high = sum((c.saving_range or (c.saving_s, c.saving_s))[1] for c in active)
        measured = difference_interval(paired, runs.times_s)
        if measured is None or promised <= 0:
            return
        low, mid, high = measured
        agrees = p_low <= high and p_high >= low
        result.agreement.append(
            {
                "loops": [c.record.id for c in active],
                "promised_s": promised,
                "promised_range_s": [p_low, p_high],
                "saved_s": [low, mid, high],
                "agrees": agrees,
            }
        )
        if agrees:
            return
        note = (
            f"its loop timings promised {promised:.4g} s [{p_low:.4g}, {p_high:.4g}] saved "
            f"per run, the whole program saved {mid:.4g} s [{low:.4g}, {high:.4g}]: its loop "
            "figures disagree with the program and are not trusted"
        )
        for c in active:
            result.disagree.setdefault(c.record.id, note)

    def try_choices(
        self, original: BuildResult, pairs: list[tuple[LoopRecord, Variant]], base: ProgramRuns
    ) -> ProgramRuns:
        """Build the program with ``pairs`` applied and run it interleaved with the original
        (whose runs are added to ``base``); every run's output is checked."""
        runs = ProgramRuns()
        try:
            text = apply_variants(self.source, pairs)
        except UserError as exc:
            runs.status, runs.message = "compile-error", f"cannot apply: {exc}"
            return runs
        tuned = self._build(text, "tuned")
        if not tuned.ok:
            runs.status, runs.message = "compile-error", tuned.first_line
            return runs
        o = self.options
        for rep in range(self.runs):
            order = ["original", "tuned"] if rep % 2 == 0 else ["tuned", "original"]
            for which in order:
                if which == "original":
                    if not self._run_original(original, base):
                        runs.status = "not-verified"
                        runs.message = f"the original program: {base.status}: {base.message}"
                        return runs
                    continue
                limit = max(o.timeout_factor * (base.median_s or 0.0), o.timeout_floor_s)
                res = self._run(tuned.exe_path, limit)
                self.on_run("tuned program")
                if res.status != "ok":
                    runs.status, runs.message = res.status, res.message
                    return runs
                tolerant = any(r.reassociates for r, _ in pairs)
                same, diff = self._same_tuned(res, tolerant, original)
                if not same and self.mask.unstable:
                    runs.status = "not-verified"
                    runs.message = (
                        f"run {rep + 1}: the original program's output differs between "
                        f"its own runs; {diff}"
                    )
                    return runs
                if not same:
                    runs.status = "wrong-output"
                    runs.message = f"run {rep + 1}: {o.check} differs: {diff}"
                    return runs
                runs.times_s.append(res.wall_s)
        return runs

    def _run_original(self, build: BuildResult, base: ProgramRuns) -> bool:
        res = self._run(build.exe_path, self.options.baseline_timeout_s)
        self.on_run("original program")
        if res.status != "ok":
            base.status, base.message = res.status, res.message
            return False
        if self.reference is None:
            self.reference = (res.stdout, res.stderr)
        else:
            self._learn(res)
            same, diff = self._same(res)
            if not same:
                self.mask.unstable = True
                base.status = "unstable-output"
                base.message = (
                    f"its output differs between runs ({diff}), so no tuned "
                    "version can be verified: use --check-ignore or --check none"
                )
                return False
        base.times_s.append(res.wall_s)
        return True

"""A campaign's progress on stderr: programs ranked, loops measured, runs, ETA.

On a terminal one status line is redrawn; elsewhere (a log, CI, nohup) one
self-contained line is written per finished loop, so a long campaign's log
shows what was decided as it goes.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import TextIO


class CampaignProgress:
    def __init__(self, quiet: bool = False, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr
        self.quiet = quiet
        self.tty = not quiet and getattr(self.stream, "isatty", lambda: False)()
        self.jobs = self.ranked_jobs = 0
        self.loops_known = self.loops_done = self.loops_skipped = 0
        self.runs = 0
        self.runs_expected = 0  # of the loops submitted so far (the budget times repetitions)
        self.started = time.monotonic()

    def start(self, jobs: int) -> None:
        self.jobs = jobs
        self.started = time.monotonic()
        self._status()

    def ranked(self, loops: int, runs: int = 0) -> None:
        """A program size was ranked: ``loops`` loops, ``runs`` runs expected to measure."""
        self.ranked_jobs += 1
        self.loops_known += loops
        self.runs_expected += runs
        self._status()

    def loop_skipped(self) -> None:
        self.loops_skipped += 1
        self._status()

    def loop_done(self, outcome, runs: int) -> None:  # a tasks.LoopOutcome
        self.loops_done += 1
        self.runs += runs
        doc = outcome.doc
        best = (doc.get("best") or {}).get("key") or "original kept"
        speedup = loop_speedup(doc)
        loop = Path(outcome.loop_id).name  # file:line without the folders
        self._event(f"{outcome.program} {outcome.size} {loop}: {best} {speedup}")

    def note(self, message: str) -> None:
        """A line about the campaign as a whole (the time budget spent)."""
        self._event(message)

    def failed(self, message: str, loop: bool = True) -> None:
        """A loop failed (counted as finished), or a program size could not be ranked."""
        if loop:
            self.loops_done += 1
        else:
            self.ranked_jobs += 1
        self._event(f"FAILED {message}")

    def close(self) -> None:
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()

    # -- text --------------------------------------------------------------------
    def counts(self) -> str:
        elapsed = time.monotonic() - self.started
        finished = self.loops_done + self.loops_skipped
        total = self._expected_loops()
        eta = ""
        if self.runs and total > finished:
            eta = f", about {_duration(self._left(elapsed))} left"
        return (
            f"program sizes {self.ranked_jobs}/{self.jobs}, loops {finished}/{total}"
            f"{'+' if self.ranked_jobs < self.jobs else ''} ({self.loops_skipped} stored), "
            f"runs {self.runs}, {_duration(elapsed)}{eta}"
        )

    def _left(self, elapsed: float) -> float:
        """Time left: the mean time per run so far times the runs still expected
        (a loop's budget decides its runs, and runs are what take the time)."""
        expected = self.runs_expected
        if 0 < self.ranked_jobs < self.jobs:
            expected += self.runs_expected / self.ranked_jobs * (self.jobs - self.ranked_jobs)
        return elapsed / self.runs * max(expected - self.runs, 0.0)

    def _expected_loops(self) -> int:
        if not self.ranked_jobs:
            return self.loops_known
        per_job = self.loops_known / self.ranked_jobs
        return round(self.loops_known + per_job * (self.jobs - self.ranked_jobs))

    def _status(self) -> None:
        if self.tty:
            self.stream.write(f"\rcampaign: {self.counts()}\033[K")
            self.stream.flush()

    def _event(self, text: str) -> None:
        if self.quiet:
            return
        if self.tty:
            self.stream.write(f"\r{text}\033[K\n")
            self._status()
        else:
            self.stream.write(f"campaign: [{self.counts()}] {text}\n")
        self.stream.flush()


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def loop_speedup(doc: dict) -> str:
    """A loop outcome's speedup as printed: the chosen variant's loop-time ratio with its
    95% interval (the whole program's is printed beside it), or 1.00x when kept."""
    if not doc.get("speedup"):
        return "-"
    key = (doc.get("best") or {}).get("key")
    iv = next(
        (v.get("speedup_interval") for v in doc.get("variants", []) if v.get("key") == key), None
    )
    if key and iv:
        return f"{iv['ratio']:.2f}x [{iv['low']:.2f}, {iv['high']:.2f}]"
    return f"{doc['speedup']:.2f}x"

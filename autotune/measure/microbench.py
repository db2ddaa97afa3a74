"""What the OpenMP runtime costs on this machine, from short micro-benchmarks.

The power-law model's overhead and contention features need a few machine
figures: a fork/join and a barrier by thread count, a dynamic chunk
hand-out, the penalty a static schedule pays for a slow or shared core, memory
bandwidth by thread count, and the time of one weighted operation (the unit of
the work features). Without them the features use nominal figures of a
typical x86 server (``models/features.py``); ``autotune calibrate`` measures
them here (``data/microbench.c``, a few seconds) so the model reflects this
machine.
"""

from __future__ import annotations

import json
import math
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import resources

from autotune.errors import UserError
from autotune.measure.build import BuildOptions
from autotune.measure.machine import Machine

FIGURES = ("forkjoin_s", "barrier_s", "dispatch_s", "static_penalty", "bandwidth_gbs", "op_s")
PROFILE_NAME = "runtime-profile"  # the name under which the store keeps it
MIN_BANDWIDTH_BYTES = 48 << 20  # arrays far beyond the caches...
MAX_BANDWIDTH_BYTES = 768 << 20  # ... within a modest memory


@dataclass
class RuntimeProfile:
    """Measured runtime figures by thread count (see ``data/microbench.c``)."""

    by_threads: dict[int, dict[str, float]] = field(default_factory=dict)

    def figure(self, name: str, threads: int) -> float:
        """``name`` at ``threads``: measured, else interpolated in log(threads) between
        the measured counts around it (the nearest one beyond them)."""
        if not self.by_threads:
            raise ValueError("empty runtime profile")
        counts = sorted(self.by_threads)
        if threads in self.by_threads:
            return self.by_threads[threads][name]
        below = [c for c in counts if c < threads]
        above = [c for c in counts if c > threads]
        if not below or not above:
            return self.by_threads[(below or above)[-1 if below else 0]][name]
        lo, hi = below[-1], above[0]
        w = (math.log(threads) - math.log(lo)) / (math.log(hi) - math.log(lo))
        return (1 - w) * self.by_threads[lo][name] + w * self.by_threads[hi][name]

    def bandwidth_speedup(self, threads: int) -> float:
        """Memory bandwidth at ``threads`` over one thread's (at least 1)."""
        one = self.figure("bandwidth_gbs", 1)
        return max(1.0, self.figure("bandwidth_gbs", threads) / one) if one > 0 else 1.0

    def to_dict(self) -> dict:
        return {
            "format": "autotune-runtime-profile/1",
            "by_threads": {str(t): f for t, f in sorted(self.by_threads.items())},
        }

    @classmethod
    def from_dict(cls, data: dict) -> RuntimeProfile:
        rows = {
            int(t): {k: float(v) for k, v in f.items() if k in FIGURES}
            for t, f in data.get("by_threads", {}).items()
        }
        if not rows or any(set(FIGURES) - set(f) for f in rows.values()):
            raise ValueError("incomplete runtime profile")
        return cls(rows)


def bandwidth_bytes(machine: Machine) -> int:
    """Bytes the triad streams: four times the last-level cache, within bounds."""
    return int(min(MAX_BANDWIDTH_BYTES, max(MIN_BANDWIDTH_BYTES, 4 * machine.l3_bytes)))


def run_microbenchmarks(
    machine: Machine,
    thread_counts: Sequence[int],
    cc: str = "gcc",
    timeout_s: float = 60.0,
    on_step: Callable[[str], None] | None = None,
) -> RuntimeProfile:
    """Compile and run the micro-benchmarks once per thread count.

    Raises UserError when they cannot be built or run: calibration then says so
    and goes on with the nominal figures.
    """
    text = resources.files("autotune").joinpath("data/microbench.c").read_text()
    build = BuildOptions(cc=cc).build(text, name_hint="microbench")
    if not build.ok:
        raise UserError(f"cannot build the runtime micro-benchmarks: {build.first_line}")
    profile = RuntimeProfile()
    size = str(bandwidth_bytes(machine))
    for threads in sorted(set(thread_counts)):
        argv = [str(build.exe_path), str(threads), size]
        try:
            # the environment the measured programs get (wait policy included)
            done = subprocess.run(
                argv, capture_output=True, text=True, timeout=timeout_s, stdin=subprocess.DEVNULL
            )
        except subprocess.TimeoutExpired:
            raise UserError(
                f"runtime micro-benchmarks at {threads} threads took over {timeout_s:g} s"
            ) from None
        try:
            row = json.loads(done.stdout.strip().splitlines()[-1])
        except (IndexError, json.JSONDecodeError):
            row = None
        if done.returncode != 0 or row is None:
            raise UserError(
                f"runtime micro-benchmarks failed at {threads} threads: "
                f"{(done.stderr or done.stdout).strip()[:200]}"
            )
        profile.by_threads[threads] = {k: float(row[k]) for k in FIGURES}
        if on_step is not None:
            on_step(f"micro-benchmarks, {threads} threads")
    return profile

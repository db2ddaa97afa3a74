"""Run the one timed build of a program over problem sizes and thread counts.

One instrumented text (regions.py) serves every point: the size is a macro,
so each size is one cached build (``-D NAME=value``) and each thread count is
``OMP_NUM_THREADS``. Repetitions are interleaved round-robin over the points
so that a slow spell of a busy machine spreads over all of them instead of
falsifying one.
"""

from __future__ import annotations

import os
import statistics
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from autotune.errors import UserError
from autotune.measure.build import BuildOptions
from autotune.measure.run import TIMING_TAG, run_program
from autotune.structure.regions import SAMPLE_TAG

Key = tuple[float | None, int]  # (size value or None, threads)
STATISTICS = ("median", "min")


@dataclass
class RunRecord:
    """What one run of the timed program reported."""

    wall: dict[str, float] = field(default_factory=dict)
    cpu: dict[str, float] = field(default_factory=dict)
    executions: dict[str, int] = field(default_factory=dict)
    samples: dict[str, list[float]] = field(default_factory=dict)
    process_wall: float = 0.0


def parse_side_channel(text: str) -> RunRecord:
    """Timing and sample lines of one run (sums lines that repeat an id)."""
    rec = RunRecord()
    for line in text.splitlines():
        parts = line.split("\t")
        try:
            if parts[0] == TIMING_TAG and len(parts) == 5:
                key = parts[1]
                rec.wall[key] = rec.wall.get(key, 0.0) + float(parts[2])
                rec.cpu[key] = rec.cpu.get(key, 0.0) + float(parts[3])
                rec.executions[key] = rec.executions.get(key, 0) + int(float(parts[4]))
            elif parts[0] == SAMPLE_TAG and len(parts) == 3:
                rec.samples.setdefault(parts[1], []).append(float(parts[2]))
        except ValueError:
            continue
    return rec


@dataclass
class PointRuns:
    """All runs at one (size, threads) point."""

    n: float | None
    p: int
    runs: list[RunRecord] = field(default_factory=list)
    statistic: str = "median"

    def totals(self, node_id: str) -> list[float]:
        return [r.wall[node_id] for r in self.runs if node_id in r.wall]

    def total(self, node_id: str) -> float | None:
        """The node's time per program run (all its executions) over the runs.

        The median by default, not the mean: on a shared machine one run in
        a few is slowed by other work, and one such run must not move the
        point; ``min`` takes the least disturbed run when most of them are.
        """
        t = self.totals(node_id)
        if not t:
            return None
        return min(t) if self.statistic == "min" else statistics.median(t)

    def spread(self, node_id: str) -> float | None:
        """Relative standard deviation of the per-run totals."""
        t = self.totals(node_id)
        if len(t) < 2 or statistics.fmean(t) <= 0:
            return None
        return statistics.stdev(t) / statistics.fmean(t)

    def executions(self, node_id: str) -> float | None:
        e = [r.executions[node_id] for r in self.runs if node_id in r.executions]
        return statistics.median(e) if e else None

    def per_execution(self, node_id: str) -> float | None:
        t, e = self.total(node_id), self.executions(node_id)
        return t / e if t is not None and e else None

    def samples(self, node_id: str) -> list[float]:
        return [x for r in self.runs for x in r.samples.get(node_id, [])]

    def paired(self, node_ids: Sequence[str]) -> list[tuple[float, ...]]:
        """Per execution of a construct: the samples of its parts from that execution."""
        out: list[tuple[float, ...]] = []
        for r in self.runs:
            cols = [r.samples.get(i, []) for i in node_ids]
            out.extend(zip(*cols, strict=False))
        return out


@dataclass
class Measurements:
    """Runs per point, plus how they were made."""

    size_name: str | None
    points: dict[Key, PointRuns] = field(default_factory=dict)
    repetitions: int = 0

    def sizes(self) -> list[float]:
        return sorted({n for n, _ in self.points if n is not None})

    def threads(self) -> list[int]:
        return sorted({p for _, p in self.points})

    def subset(self, keys: Sequence[Key]) -> Measurements:
        return Measurements(
            self.size_name, {k: self.points[k] for k in keys if k in self.points}, self.repetitions
        )

    def point(self, n: float | None, p: int) -> PointRuns | None:
        return self.points.get((n, p))

    def rows(self, value: Callable[[PointRuns], float | None]) -> list[tuple[float, int, float]]:
        """(n, p, value) for every sized point where ``value`` is known."""
        out = []
        for (n, p), pt in sorted(self.points.items(), key=lambda kv: (kv[0][0] or 0, kv[0][1])):
            v = value(pt)
            if n is not None and v is not None:
                out.append((n, p, v))
        return out


def _number_text(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else repr(v)


def measure_points(
    text: str,
    source_path: str,
    points: Sequence[Key],
    *,
    size_name: str | None,
    repetitions: int,
    build: BuildOptions,
    timeout_s: float = 300.0,
    progress: Callable[[str], None] | None = None,
    statistic: str = "median",
    args: Sequence[str] = (),
) -> Measurements:
    """Build the timed ``text`` once per size and run every point ``repetitions`` times."""
    if repetitions < 1:
        raise UserError("--repetitions must be at least 1")
    exes = _build_sizes(text, source_path, points, size_name, build)
    if statistic not in STATISTICS:
        raise UserError(f"unknown statistic {statistic!r}; choose from {', '.join(STATISTICS)}")
    out = Measurements(
        size_name, {k: PointRuns(k[0], k[1], statistic=statistic) for k in points}, repetitions
    )
    fd, name = tempfile.mkstemp(prefix="autotune-structure-", suffix=".txt")
    os.close(fd)
    timing = Path(name)
    try:
        for _ in range(repetitions):
            for n, p in points:
                timing.write_text("")
                at = (
                    f"{size_name}={_number_text(n)}, " if n is not None and size_name else ""
                ) + f"p={p}"
                rec = _timed_run(exes[n], p, timing, timeout_s, args, at, source_path)
                out.points[(n, p)].runs.append(rec)
                if progress:
                    progress(at)
    finally:
        timing.unlink(missing_ok=True)
    return out


def _build_sizes(
    text: str, source_path: str, points: Sequence[Key], size_name: str | None, build: BuildOptions
) -> dict[float | None, Path]:
    """One build of the timed program per size among ``points``."""
    exes: dict[float | None, Path] = {}
    for n in dict.fromkeys(n for n, _ in points):
        defines = dict(build.defines)
        if n is not None and size_name:
            defines[size_name] = _number_text(n)
        opts = BuildOptions(
            build.cc,
            list(build.cflags),
            list(build.ldflags),
            defines,
            list(build.include_dirs),
            list(build.extra_sources),
            build.cache_dir,
        )
        res = opts.build(
            text, name_hint=f"{Path(source_path).stem}-structure", source_path=source_path
        )
        where = f" with {size_name}={_number_text(n)}" if n is not None and size_name else ""
        if not res.ok:
            raise UserError(
                f"the timed program does not compile{where}: {res.first_line}", location=source_path
            )
        exes[n] = res.exe_path  # type: ignore[assignment]
    return exes


def _timed_run(
    exe: Path, p: int, timing: Path, timeout_s: float, args: Sequence[str], at: str, source: str
):  # the side channel's record
    """One run at ``p`` threads; its node times from the side channel."""
    r = run_program(
        exe, env={"OMP_NUM_THREADS": str(p)}, timeout_s=timeout_s, timing_file=timing, args=args
    )
    if r.status != "ok":
        raise UserError(f"the timed program failed at {at}: {r.message}", location=source)
    rec = parse_side_channel(timing.read_text(errors="replace"))
    if not rec.wall:
        raise UserError(f"the timed program reported no times at {at}", location=source)
    rec.process_wall = r.wall_s
    return rec

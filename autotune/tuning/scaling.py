"""Measure a program's loops over sizes and thread counts, and extrapolate with a skeleton.

Each size is a build with ``-D MACRO=value``; each thread count is a variant
that keeps the written schedule and sets only the thread count. The loop times
(median of the repetitions, with a robust noise estimate) form an
(n, p, time, noise) table per loop, which goes to the skeleton predictor. The
prediction is made before the target is measured (where it can be) and never
sees it. ``plan_grid`` chooses the sizes and thread counts for a time budget.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from autotune.analysis import analyze_options
from autotune.errors import UserError
from autotune.frontend.options import SourceOptions
from autotune.frontend.records import select_loops
from autotune.measure.build import BuildOptions
from autotune.measure.machine import Machine
from autotune.measure.sweep import Sweep, SweepOptions
from autotune.skeletons.estimators import ALL_METHODS
from autotune.skeletons.predictor import Prediction, predict_point
from autotune.skeletons.selection import DEFAULT_EPSILON
from autotune.textfile import read_source
from autotune.tuning.scale_outcome import save_scale_outcome
from autotune.variants.space import Variant

Point = tuple[int, int, float, float]  # (size, threads, median loop time, noise)


def run_noise(times: Sequence[float]) -> float:
    """A robust standard deviation of the repetitions (1.4826 x median absolute
    deviation), so one stalled run does not make every check pass."""
    if len(times) < 2:
        return 0.0
    ordered = sorted(times)
    med = ordered[len(ordered) // 2]
    dev = sorted(abs(t - med) for t in ordered)
    return 1.4826 * dev[len(dev) // 2]


@dataclass
class ScaleGrid:
    """Runs the measurement harness for (size, threads) points of one program."""

    path: str
    macro: str
    source: SourceOptions
    store: object
    machine: Machine
    cc: str = "gcc"
    repetitions: int = 3
    fresh: bool = False
    loops: Sequence[str] = ()  # loop ids or lines; empty: every tunable parallel loop
    on_run: Callable[[str], None] = lambda note: None
    warnings: list[str] = field(default_factory=list)
    # the program's own arguments; ``{NAME}`` in them (NAME the size's name) stands for
    # the size, which then reaches the program through them instead of ``-D NAME=size``
    args: Sequence[str] = ()

    def sized_by_args(self) -> bool:
        return any(f"{{{self.macro}}}" in a for a in self.args)

    def measure(self, size: int, threads: Sequence[int]) -> dict[str, list[Point]]:
        """Loop id -> points measured at ``size`` for each thread count."""
        run_args = [a.replace(f"{{{self.macro}}}", str(size)) for a in self.args]
        defines = dict(self.source.defines)
        if not self.sized_by_args():
            defines[self.macro] = str(size)
        opts = replace(self.source, defines=defines)
        build = BuildOptions.of_source(opts, self.cc)
        unit = self._unit(opts, build, run_args)
        sweep = Sweep(
            self.path,
            build,
            SweepOptions(repetitions=self.repetitions, fresh=self.fresh, run_args=run_args),
            self.store,
            machine=self.machine,
            on_run=lambda note: self.on_run(f"{self.macro}={size} {note}"),
        )
        out: dict[str, list[Point]] = {}
        for record in scalable_loops(unit, self.loops):
            res = sweep.measure_loop(record, [Variant(None, None, p) for p in threads])
            self.warnings.extend(res.warnings)
            if res.skipped:
                self.warnings.append(f"{record.id}: {res.skipped}")
                continue
            for vr in res.variants:
                if vr.ok and vr.measured_s is not None:
                    out.setdefault(record.id, []).append(
                        (size, vr.variant.threads, vr.measured_s, run_noise(vr.times_s))
                    )
                else:
                    self.warnings.append(
                        f"{record.id} {self.macro}={size} "
                        f"p={vr.variant.threads}: {vr.status} {vr.message}"
                    )
        return out

    def _unit(self, opts: SourceOptions, build: BuildOptions, run_args: list[str]):
        """The analysis at this size: with the program's arguments, one profile run
        measures what they size (as ``tune --args`` does)."""
        if not run_args:
            return analyze_options(self.path, opts, threads=self.machine.cores, cc=self.cc)
        from autotune.measure.profile import ProfileRequest, analyze_with_profile

        req = ProfileRequest(Path(self.path), read_source(self.path), build, run_args)
        unit, _ = analyze_with_profile(
            self.path, opts, req, self.store, threads=self.machine.cores, cc=self.cc
        )
        return unit


def scalable_loops(unit, wanted: Sequence[str]) -> list:  # a TranslationUnit
    loops = [r for r in select_loops(unit.loops, wanted) if r.tunable and r.parallel is not None]
    if not loops:
        raise UserError(
            f"no loop with a parallel directive to scale in {unit.path}"
            + (f" matching {', '.join(wanted)}" if wanted else "")
        )
    return loops


@dataclass
class ScaleResult:
    loop: str
    points: list[Point]
    prediction: Prediction


def scale(
    grid: ScaleGrid,
    sizes: Sequence[int],
    threads: Sequence[int],
    target: tuple[int, int],
    *,
    skeleton: str = "parmap",
    method: str = "auto",
    method_abar: str | None = None,
    epsilon: float = DEFAULT_EPSILON,
    holdout: int = 2,
    measure_target: bool = True,
) -> list[ScaleResult]:
    """Measure the grid, predict ``target`` = (size, threads) per loop, then measure it."""
    rows: dict[str, list[Point]] = {}
    for size in sizes:
        for loop, pts in grid.measure(size, threads).items():
            rows.setdefault(loop, []).extend(pts)
    n_t, p_t = target
    results = [
        ScaleResult(
            loop,
            pts,
            predict_point(
                pts,
                skeleton,
                n_t,
                p_t,
                method,
                method_abar=method_abar,
                epsilon=epsilon,
                holdout=holdout,
                best_effort=True,
                methods=ALL_METHODS,
            ),
        )
        for loop, pts in rows.items()
    ]
    if measure_target and results:
        got = grid.measure(n_t, [p_t])
        for r in results:
            hit = [t for n, p, t, _ in got.get(r.loop, []) if n == n_t and p == p_t]
            if hit:
                r.prediction.measured = hit[0]
                if r.prediction.time is not None:
                    r.prediction.error = (r.prediction.time - hit[0]) / hit[0]
    for r in results:  # for the report: the prediction and its figures
        save_scale_outcome(grid, r, target)
    return results


@dataclass
class GridPlan:
    sizes: list[int]
    threads: list[int]
    predicted_cost_s: float
    notes: list[str] = field(default_factory=list)


def plan_grid(
    probe: Callable[[int], float],
    target: tuple[int, int],
    cores: int,
    budget_s: float,
    smallest: int | None = None,
) -> GridPlan:
    """Sizes and thread counts to measure for ``target`` within ``budget_s`` seconds.

    ``probe(size)`` returns the measured one-thread time of a run at ``size``
    (two probes, at the smallest size and twice it, give the growth exponent).
    Thread counts: 1, powers of two, the cores, and the target's count where it
    can run here. Sizes: four, geometrically spaced, the largest as close to the
    target as the budget allows (each measured at every thread count, three
    repetitions, plus the target itself when it can run here).
    """
    n_t, p_t = target
    lo = smallest or max(1, n_t // 64)
    t_lo, t_2lo = probe(lo), probe(2 * lo)
    k = math.log(max(t_2lo, 1e-9) / max(t_lo, 1e-9), 2) if t_lo > 0 else 1.0
    k = min(max(k, 0.5), 4.0)
    threads = sorted(
        {1, *(2**i for i in range(1, 8) if 2**i <= cores), cores, *([p_t] if p_t <= cores else [])}
    )
    per_size = 3 * sum(1.0 / t for t in threads)  # runs at one size, in one-thread units

    def cost(top: int) -> float:
        sizes = geometric_sizes(lo, top)
        total = sum(per_size * t_lo * (s / lo) ** k for s in sizes)
        if p_t <= cores:
            total += 3 * t_lo * (n_t / lo) ** k / p_t
        return total

    top = lo * 8
    while top * 2 <= n_t and cost(top * 2) <= budget_s:
        top *= 2
    plan = GridPlan(geometric_sizes(lo, top), threads, cost(top))
    plan.notes.append(f"run time grows as n^{k:.2f} (probed at n={lo} and {2 * lo})")
    if plan.predicted_cost_s > budget_s:
        plan.notes.append(
            f"even the smallest grid needs about {plan.predicted_cost_s:.0f} s, "
            f"over the budget of {budget_s:g} s"
        )
    if top < n_t:
        plan.notes.append(
            f"largest size {top}: {n_t / top:.1f}x below the target "
            "(a larger budget lets it come closer)"
        )
    return plan


def geometric_sizes(lo: int, top: int, count: int = 4) -> list[int]:
    """``count`` sizes from ``lo`` to ``top``, evenly spaced in log scale."""
    if top <= lo:
        return [lo, 2 * lo]
    ratio = (top / lo) ** (1 / (count - 1))
    return sorted({int(round(lo * ratio**i)) for i in range(count)})


@dataclass
class ScaleRun:
    """What one ``scale`` command measured and predicted."""

    results: list[ScaleResult]
    grid: ScaleGrid
    plan: GridPlan | None  # when a budget chose the grid
    sizes: list[int]
    threads: list[int]

    @property
    def database(self) -> str:
        """Where the runs were stored."""
        return str(getattr(self.grid.store, "path", ""))


def scale_program(
    grid: ScaleGrid,
    sizes: Sequence[int],
    threads: Sequence[int],
    target: tuple[int, int],
    *,
    budget_s: float | None = None,
    measure_target: bool = True,
    on_plan: Callable[[int], None] | None = None,
    **predict: object,
) -> ScaleRun:
    """Plan the grid for ``budget_s`` (one-thread probes) or take ``sizes`` as given,
    measure it, predict ``target`` per loop (``predict``: scale's skeleton and method
    options); ``on_plan`` hears how many program runs it will make."""
    plan = None
    if budget_s is not None:
        plan = plan_grid(
            lambda size: probe_time(grid, size),
            target,
            grid.machine.cores,
            budget_s,
            smallest=sizes[0] if sizes else None,
        )
        sizes, threads = plan.sizes, plan.threads
    if on_plan is not None:
        runs = len(sizes) * len(threads) + (1 if measure_target else 0) + len(sizes)
        on_plan(runs * grid.repetitions)
    results = scale(grid, sizes, threads, target, measure_target=measure_target, **predict)
    return ScaleRun(results, grid, plan, list(sizes), list(threads))


def probe_time(grid: ScaleGrid, size: int) -> float:
    """One-thread loop time at ``size`` (the first loop's), for planning."""
    got = grid.measure(size, [1])
    times = [t for pts in got.values() for _n, _p, t, _e in pts]
    if not times:
        raise UserError(f"cannot plan: nothing could be measured at size {size}")
    return max(times)

"""Time a program's structure tree for real, or predict it at an unmeasured point.

The orchestration behind ``autotune structure --measure`` and ``--predict``:
one instrumented build per size, every node timed over a grid of thread
counts (and sizes), then the skeleton predictions at the target. Nothing here
parses arguments or prints.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from autotune.frontend.options import SourceOptions
from autotune.measure.build import BuildOptions
from autotune.structure.nodes import ProgramTree
from autotune.structure.predict_program import ProgramPredictor
from autotune.structure.program_runs import Measurements, measure_points
from autotune.structure.regions import instrument
from autotune.structure.sections_model import composition_check
from autotune.structure.tree import build_tree


@dataclass
class RunSettings:
    """How the instrumented program is built and run."""

    build: BuildOptions
    repetitions: int = 3
    timeout_s: float = 300.0
    statistic: str = "median"
    args: list[str] = field(default_factory=list)
    progress: Callable[[str], None] | None = None


@dataclass
class TreeMeasurement:
    tree: ProgramTree
    threads: list[int]
    per_p: dict  # p -> the measured point (program_runs.Point)
    checks: list[dict]  # sections against the composition model


def measure_tree(
    source: str, path: str, tree: ProgramTree, threads: list[int], run: RunSettings
) -> TreeMeasurement:
    """Time every node of ``tree`` at each thread count (one build)."""
    text, _slots, _ = instrument(source, tree)
    m = _measure(text, path, [(None, p) for p in threads], None, run)
    checks = []
    for node in tree.nodes():
        if node.kind == "sections" and node.timed:
            ids = [c.id for c in node.children if c.timed]
            for p in threads:
                c = composition_check(m.point(None, p), node.id, ids)
                if c is not None:
                    checks.append({"sections": node.id, **c})
    return TreeMeasurement(tree, threads, {p: m.point(None, p) for p in threads}, checks)


@dataclass
class TreePrediction:
    tree: ProgramTree  # at the largest measured size
    tree_star: ProgramTree  # at the target size
    grid: Measurements
    target: Measurements | None  # the target measured, when it could run here
    estimates: dict  # node id -> predict_program.Estimate


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def with_define(options: SourceOptions, name: str, value: float) -> SourceOptions:
    text = str(int(value)) if float(value).is_integer() else repr(value)
    return replace(options, defines={**options.defines, name: text})


def predict_tree(
    source: str,
    path: str,
    options: SourceOptions,
    size_name: str,
    sizes: list[float],
    threads: list[int],
    target: tuple[float, int],
    run: RunSettings,
    *,
    measure_target: bool,
    cc: str = "gcc",
) -> TreePrediction:
    """Measure every node over sizes x threads and predict each at ``target`` (n, p)."""
    n_star, p_star = target
    tree = build_tree(path, with_define(options, size_name, sizes[-1]), cc=cc)
    tree_star = build_tree(path, with_define(options, size_name, n_star), cc=cc)
    if {n.id for n in tree.nodes()} != {n.id for n in tree_star.nodes()}:
        tree.warnings.append(
            f"the structure at {size_name}={_num(n_star)} differs from the one at "
            f"{size_name}={_num(sizes[-1])}: nodes missing at the target are ignored"
        )
    text, _slots, _ = instrument(source, tree)
    grid_points = [(n, p) for n in sizes for p in threads]
    # the target's runs are interleaved with the grid's: both see the same machine
    extra = [target] if measure_target and target not in grid_points else []
    every = _measure(text, path, grid_points + extra, size_name, run)
    grid = every.subset(grid_points)
    measured = every.subset([target]) if measure_target else None
    estimates = ProgramPredictor(tree, tree_star, grid, n_star, p_star, measured).run()
    return TreePrediction(tree, tree_star, grid, measured, estimates)


def _measure(
    text: str, path: str, points: list, size_name: str | None, run: RunSettings
) -> Measurements:
    return measure_points(
        text,
        path,
        points,
        size_name=size_name,
        repetitions=run.repetitions,
        build=run.build,
        timeout_s=run.timeout_s,
        progress=run.progress,
        statistic=run.statistic,
        args=run.args,
    )

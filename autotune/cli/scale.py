"""``autotune scale``: measure a program's loops over sizes and thread counts, extrapolate.

Each size is a build with ``-D NAME=value``; each thread count is a variant
that keeps the written schedule and sets only the thread count. The loop
times (median of the repetitions, from the measurement harness) form an
(n, p, time) table per loop, which goes to the same skeleton predictor as
``autotune predict``. Then, where the target can be run here (p not above the
cores), it is measured too and the prediction's error printed. The prediction
is made before that measurement and never sees it.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

from autotune.cli import render
from autotune.cli.common import add_source_arguments, source_options
from autotune.cli.predict import METHOD_CHOICES, _parse_epsilon, print_prediction
from autotune.errors import UserError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE.c", help="C source file")
    parser.add_argument("--sizes", required=True, metavar="NAME=V1,V2,...",
                        help="the size macro and its measured values, e.g. N=200,400,800")
    parser.add_argument("--threads", default="1,2", metavar="LIST",
                        help="measured thread counts (default 1,2)")
    parser.add_argument("--predict", metavar="NAME=V,p=P",
                        help="the point to estimate (default: twice the largest size at the "
                             "largest thread count)")
    parser.add_argument("--loop", action="append", default=[], metavar="ID",
                        help="loop id (FILE:LINE) or line (default: every tunable loop)")
    parser.add_argument("--skeleton", choices=("parmap", "farm", "dc", "iteration"),
                        default="parmap", help="parallel structure (default parmap)")
    parser.add_argument("--method", choices=METHOD_CHOICES, default="auto")
    parser.add_argument("--method-abar", choices=METHOD_CHOICES, default=None)
    parser.add_argument("--epsilon", default="10%",
                        help="acceptable error of the auto choice (default 10%%: measured "
                             "times on a shared machine are noisy)")
    parser.add_argument("--holdout", type=int, default=2,
                        help="auto choice: predict the last H measured sizes from the ones "
                             "before (default 2: one noisy point is a weak judge)")
    parser.add_argument("--no-measure-target", action="store_true",
                        help="do not measure the predicted point")
    parser.add_argument("--repetitions", type=int, default=3, help="runs per point (default 3)")
    parser.add_argument("--cc", default="gcc", help="compiler (default gcc)")
    parser.add_argument("--db", metavar="PATH", help="measurement database (as for measure)")
    parser.add_argument("--fresh", action="store_true", help="measure again, ignore stored runs")
    add_source_arguments(parser)
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--plot", metavar="FILE.png", help="figure of the first loop's estimate")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def _parse_sizes(text: str) -> tuple[str, list[int]]:
    name, sep, values = text.partition("=")
    if not sep or not name.strip().isidentifier():
        raise UserError(f"--sizes: write NAME=V1,V2,..., got {text!r}")
    try:
        sizes = [int(v) for v in values.split(",") if v.strip()]
    except ValueError:
        raise UserError(f"--sizes: values must be whole numbers, got {values!r}") from None
    if len(sizes) < 2 or any(v < 1 for v in sizes):
        raise UserError("--sizes needs at least two positive values")
    return name.strip(), sorted(set(sizes))


def _parse_threads(text: str) -> list[int]:
    try:
        threads = sorted({int(v) for v in text.split(",") if v.strip()})
    except ValueError:
        raise UserError(f"--threads: whole numbers, got {text!r}") from None
    if not threads or threads[0] < 1:
        raise UserError("--threads needs positive thread counts")
    return threads


def _parse_target(text: str | None, macro: str, sizes: list[int],
                  threads: list[int]) -> tuple[int, int]:
    if not text:
        return 2 * sizes[-1], threads[-1]
    values: dict[str, str] = {}
    for part in text.split(","):
        key, sep, val = part.partition("=")
        if not sep:
            raise UserError(f"--predict: write {macro}=V,p=P, got {text!r}")
        values[key.strip()] = val.strip()
    if set(values) - {macro, "p"} or macro not in values:
        raise UserError(f"--predict: write {macro}=V,p=P (the macro of --sizes), got {text!r}")
    try:
        n, p = int(values[macro]), int(values.get("p", threads[-1]))
    except ValueError:
        raise UserError(f"--predict: whole numbers, got {text!r}") from None
    if n < 1 or p < 1:
        raise UserError("--predict: size and p must be positive")
    return n, p


class Grid:
    """Runs the harness for (size, threads) points and collects loop times."""

    def __init__(self, args: argparse.Namespace, macro: str, store, machine, bar) -> None:  # noqa: ANN001
        self.args, self.macro, self.store, self.machine, self.bar = (
            args, macro, store, machine, bar)
        self.base = source_options(args)
        self.warnings: list[str] = []

    def measure(self, size: int, threads: list[int]) -> dict[str, list[tuple[int, int, float]]]:
        from autotune.frontend import analyze_options
        from autotune.measure.build import DEFAULT_CFLAGS, BuildOptions
        from autotune.measure.sweep import Sweep, SweepOptions
        from autotune.variants.space import Variant

        opts = replace(self.base, defines={**self.base.defines, self.macro: str(size)})
        unit = analyze_options(self.args.file, opts, threads=self.machine.cores,
                               cc=self.args.cc)
        build = BuildOptions(cc=self.args.cc, cflags=[*DEFAULT_CFLAGS, *opts.cflags],
                             defines=dict(opts.defines), include_dirs=list(opts.include_dirs))
        sweep = Sweep(self.args.file, build,
                      SweepOptions(repetitions=self.args.repetitions, fresh=self.args.fresh),
                      self.store, machine=self.machine,
                      on_run=lambda note: self.bar.advance(note=f"{self.macro}={size} {note}"))
        out: dict[str, list[tuple[int, int, float]]] = {}
        for record in select_loops(unit, self.args.loop):
            res = sweep.measure_loop(record, [Variant(None, None, p) for p in threads])
            self.warnings.extend(res.warnings)
            if res.skipped:
                self.warnings.append(f"{record.id}: {res.skipped}")
                continue
            for vr in res.variants:
                if vr.ok and vr.measured_s is not None:
                    out.setdefault(record.id, []).append((size, vr.variant.threads,
                                                          vr.measured_s))
                else:
                    self.warnings.append(f"{record.id} {self.macro}={size} "
                                         f"p={vr.variant.threads}: {vr.status} {vr.message}")
        return out


def select_loops(unit, wanted: list[str]) -> list:  # noqa: ANN001 - a TranslationUnit
    loops = [r for r in unit.loops if r.tunable and r.parallel is not None]
    if wanted:
        loops = [r for r in loops if any(w in (r.id, str(r.line)) or r.id.endswith("/" + w)
                                         for w in wanted)]
    if not loops:
        raise UserError(f"no loop with a parallel directive to scale in {unit.path}"
                        + (f" matching {', '.join(wanted)}" if wanted else ""))
    return loops


def run(args: argparse.Namespace) -> int:
    from autotune.measure.machine import detect_machine
    from autotune.measure.store import Store
    from autotune.skeletons.predictor import predict_point

    if not Path(args.file).is_file():
        raise UserError(f"no such file: {args.file}")
    if args.repetitions < 1:
        raise UserError("--repetitions must be at least 1")
    macro, sizes = _parse_sizes(args.sizes)
    threads = _parse_threads(args.threads)
    n_t, p_t = _parse_target(args.predict, macro, sizes, threads)
    epsilon = _parse_epsilon(args.epsilon)
    machine = detect_machine(args.cc.split()[0] if args.cc.strip() else "gcc")
    measure_target = not args.no_measure_target and p_t <= machine.cores
    total = (len(sizes) * (len(threads) + 1) + (2 if measure_target else 0)) * args.repetitions
    results = []
    with Store(args.db) as store, render.Progress(total, "scale",
                                                  quiet=args.quiet or args.json) as bar:
        db_path = str(store.path)
        grid = Grid(args, macro, store, machine, bar)
        rows: dict[str, list[tuple[int, int, float]]] = {}
        for size in sizes:
            for loop, pts in grid.measure(size, threads).items():
                rows.setdefault(loop, []).extend(pts)
        for loop, pts in rows.items():
            pred = predict_point(pts, args.skeleton, n_t, p_t, args.method,
                                 method_abar=args.method_abar, epsilon=epsilon,
                                 holdout=args.holdout)
            results.append((loop, pts, pred))
        if measure_target and results:
            got = grid.measure(n_t, [p_t])
            for _loop, _pts, pred in results:
                hit = [t for n, p, t in got.get(_loop, []) if n == n_t and p == p_t]
                if hit:
                    pred.measured = hit[0]
                    if pred.time is not None:
                        pred.error = (pred.time - hit[0]) / hit[0]
    if not results:
        raise UserError("no loop could be measured: " + "; ".join(grid.warnings[:3]))
    if args.plot:
        from autotune.skeletons.plot import plot_prediction

        plot_prediction(results[0][2], args.plot)
        if not args.json:
            print(f"plot written to {args.plot}")
    if args.json:
        render.dump_json({
            "file": args.file, "macro": macro, "sizes": sizes, "threads": threads,
            "target": {macro: n_t, "p": p_t}, "machine_cores": machine.cores,
            "target_measured": measure_target, "warnings": grid.warnings,
            "loops": [{"loop": loop, "measurements": [{"n": n, "p": p, "time_s": t}
                                                      for n, p, t in pts],
                       "prediction": pred.to_dict()} for loop, pts, pred in results],
            "database": db_path, "plot": args.plot,
        })
    else:
        _print(results, macro, n_t, p_t, measure_target, machine.cores, grid.warnings)
        print(f"runs stored in {db_path}")
    failed = [pred.failure for _l, _p, pred in results if not pred.ok]
    if failed:
        raise UserError(failed[0])
    return 0


def _print(results, macro, n_t, p_t, measured, cores, warnings) -> None:  # noqa: ANN001
    out = sys.stdout
    for w in dict.fromkeys(warnings):
        print(f"warning: {w}", file=out)
    for loop, pts, pred in results:
        print(f"loop {loop}: loop time (median of runs) by {macro} and threads", file=out)
        render.table([macro, "p", "time (s)"], sorted(pts), out=out)
        print(file=out)
        print_prediction(pred, out)
        if not measured:
            why = "--no-measure-target" if p_t <= cores else f"p={p_t} exceeds the {cores} cores"
            print(f"target {macro}={n_t}, p={p_t} not measured ({why})", file=out)
        print(file=out)

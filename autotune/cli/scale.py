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
import shlex
import sys

from autotune import render
from autotune.cli.common import add_source_arguments, check_writable
from autotune.cli.predict import METHOD_CHOICES, _parse_epsilon, print_prediction
from autotune.errors import UserError, require_c_file


# Over 60 lines: one declaration per option; --help reads them in this order.
def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE.c", help="C source file")
    parser.add_argument(
        "--sizes",
        metavar="NAME=V1,V2,...",
        help="the size and its measured values, e.g. N=200,400,800: a macro (-D N=200), "
        "or {N} in --args for a program sized by its arguments",
    )
    parser.add_argument(
        "--args",
        metavar='"ARGS"',
        help='the program\'s own arguments, with {N} where the size goes, e.g. --args "{N} 50"',
    )
    parser.add_argument(
        "--budget",
        type=float,
        metavar="SECONDS",
        help="plan the grid: probe the program at two small sizes, then choose "
        "sizes and thread counts for --predict that fit in about SECONDS "
        "of runs (--sizes, if given, sets the smallest size)",
    )
    parser.add_argument(
        "--threads", default="1,2", metavar="LIST", help="measured thread counts (default 1,2)"
    )
    parser.add_argument(
        "--predict",
        metavar="NAME=V,p=P",
        help="the point to estimate (default: twice the largest size at the largest thread count)",
    )
    parser.add_argument(
        "--loop",
        action="append",
        default=[],
        metavar="ID",
        help="loop id (FILE:LINE) or line (default: every tunable loop)",
    )
    parser.add_argument(
        "--skeleton",
        choices=("parmap", "farm", "dc", "iteration"),
        default="parmap",
        help="parallel structure (default parmap)",
    )
    parser.add_argument("--method", choices=METHOD_CHOICES, default="auto")
    parser.add_argument("--method-abar", choices=METHOD_CHOICES, default=None)
    parser.add_argument(
        "--epsilon",
        default="10%",
        help="acceptable error of the auto choice (default 10%%: measured "
        "times on a shared machine are noisy)",
    )
    parser.add_argument(
        "--holdout",
        type=int,
        default=2,
        help="auto choice: predict the last H measured sizes from the ones "
        "before (default 2: one noisy point is a weak judge)",
    )
    parser.add_argument(
        "--no-measure-target", action="store_true", help="do not measure the predicted point"
    )
    parser.add_argument("--repetitions", type=int, default=3, help="runs per point (default 3)")
    parser.add_argument("--cc", default="gcc", help="compiler (default gcc)")
    parser.add_argument("--db", metavar="PATH", help="measurement database (as for measure)")
    parser.add_argument("--fresh", action="store_true", help="measure again, ignore stored runs")
    add_source_arguments(parser)
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--plot", metavar="FILE.png", help="figure of the first loop's estimate")
    parser.add_argument(
        "--plot-grid",
        metavar="FILE.png",
        help="figure of the first loop's measured grid: the parallel penalty "
        "Abar and the Karp-Flatt serial fraction over p, one line per size",
    )
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


def _parse_target(
    text: str | None, macro: str, sizes: list[int], threads: list[int]
) -> tuple[int, int]:
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


def run(args: argparse.Namespace) -> int:
    from autotune.api import Session

    require_c_file(args.file)
    if args.repetitions < 1:
        raise UserError("--repetitions must be at least 1")
    if args.sizes is None and args.budget is None:
        raise UserError("give --sizes NAME=V1,V2,... or --budget SECONDS with --predict")
    if args.budget is not None and (args.budget <= 0 or not args.predict):
        raise UserError("--budget needs a positive number of seconds and --predict NAME=V,p=P")
    macro, sizes = _parse_sizes(args.sizes) if args.sizes else (_macro(args.predict), [])
    args.program_args = _program_args(args.args, macro)
    for plot in (args.plot, args.plot_grid):  # said before anything is measured
        if plot:
            check_writable(plot)
    threads = _parse_threads(args.threads)
    target = _parse_target(args.predict, macro, sizes or [1], threads)
    machine = Session(cc=args.cc).machine()
    measure_target = not args.no_measure_target and target[1] <= machine.cores
    done = _measure(args, macro, sizes, threads, target, measure_target)
    if not done.results:
        raise UserError("no loop could be measured: " + "; ".join(done.grid.warnings[:3]))
    written = _plots(args, done.results, macro)
    if args.json:
        render.dump_json(_json(args, done, macro, target, machine, measure_target, written))
    else:
        if done.plan is not None:
            print(
                f"plan for {args.budget:g} s: {macro} = {', '.join(map(str, done.sizes))}; "
                f"p = {', '.join(map(str, done.threads))} "
                f"(about {done.plan.predicted_cost_s:.0f} s)"
            )
            for note in done.plan.notes:
                print(f"  {note}")
        n_t, p_t = target
        _print(done.results, macro, n_t, p_t, measure_target, machine.cores, done.grid.warnings)
        for path in written:
            print(f"plot written to {path}")
        print(f"runs stored in {done.database}")
    failed = [r.prediction.failure for r in done.results if not r.prediction.ok]
    if failed:
        raise UserError(failed[0])
    return 0


def _measure(args, macro, sizes, threads, target, measure_target):
    """Plan the grid (--budget) or take it as given, measure it, predict the target."""
    from autotune.api import Session

    session = Session(db=args.db, cc=args.cc, repetitions=args.repetitions, args=args.program_args)
    with render.Progress(1, "scale", quiet=args.quiet or args.json) as bar:
        done = session.scale(
            args.file,
            macro,
            target,
            sizes=sizes,
            threads=threads,
            budget_s=args.budget,
            measure_target=measure_target,
            loops=args.loop,
            fresh=args.fresh,
            on_plan=lambda n: setattr(bar, "total", max(n, 1)),
            on_run=lambda note: bar.advance(note=note),
            skeleton=args.skeleton,
            method=args.method,
            method_abar=args.method_abar,
            epsilon=_parse_epsilon(args.epsilon),
            holdout=args.holdout,
        )
    return done


def _json(args, done, macro, target, machine, measure_target, written) -> dict:
    n_t, p_t = target
    plan = done.plan
    return {
        "file": args.file,
        "macro": macro,
        "args": args.args,  # the program's arguments, {NAME} where each size went
        "sizes": done.sizes,
        "threads": done.threads,
        "target": {macro: n_t, "p": p_t},
        "machine_cores": machine.cores,
        "target_measured": measure_target,
        "warnings": done.grid.warnings,
        "plan": None if plan is None else {**plan.__dict__, "budget_s": args.budget},
        "loops": [
            {
                "loop": r.loop,
                "measurements": [
                    {"n": n, "p": p, "time_s": t, "noise_s": e} for n, p, t, e in r.points
                ],
                "prediction": r.prediction.to_dict(),
            }
            for r in done.results
        ],
        "database": done.database,
        "plots": written,
    }


def _program_args(text: str | None, name: str) -> list[str]:
    """The program's arguments, split as a shell would; with them, the size must be
    written into them as ``{NAME}`` (a program sized by argv has no macro to set)."""
    if text is None:
        return []
    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise UserError(f"--args: {exc}") from None
    if not any(f"{{{name}}}" in w for w in words):
        raise UserError(
            f'--args: write {{{name}}} where the size goes, e.g. --args "{{{name}}} 50"'
        )
    return words


def _macro(predict: str | None) -> str:
    """The size macro named in --predict (NAME=V,p=P) when --sizes is not given."""
    for part in (predict or "").split(","):
        key = part.partition("=")[0].strip()
        if key and key != "p" and key.isidentifier():
            return key
    raise UserError("--predict: write NAME=V,p=P")


def _plots(args: argparse.Namespace, results, macro: str) -> list[str]:
    written = []
    if args.plot:
        from autotune.skeletons.plot import plot_prediction

        plot_prediction(results[0].prediction, args.plot)
        written.append(args.plot)
    if args.plot_grid:
        from autotune.skeletons.plot import plot_scalability

        plot_scalability(results[0].points, results[0].prediction, args.plot_grid, macro)
        written.append(args.plot_grid)
    return written


def _print(results, macro, n_t, p_t, measured, cores, warnings) -> None:
    out = sys.stdout
    for w in dict.fromkeys(warnings):
        print(f"warning: {w}", file=out)
    for r in results:
        pred = r.prediction
        print(f"loop {r.loop}: loop time (median of runs) by {macro} and threads", file=out)
        render.table([macro, "p", "time (s)", "noise (s)"], sorted(r.points), out=out)
        print(file=out)
        print_prediction(pred, out)
        if not measured:
            why = "--no-measure-target" if p_t <= cores else f"p={p_t} exceeds the {cores} cores"
            print(f"target {macro}={n_t}, p={p_t} not measured ({why})", file=out)
        print(file=out)

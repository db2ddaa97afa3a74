"""``autotune structure``: the program's parallel structure as a skeleton tree.

Three levels of answer, each adding to the last:

* the tree only (no build): iteration, parallel loops (parMap/farm), sections
  (binary composition), task recursion (divide and conquer), parallel regions;
* ``--measure``: every node timed for real in one instrumented build, at the
  given defines, over ``--repetitions`` runs; sections are compared with the
  composition model (E[max] from the sections' four moments);
* ``--sizes N=a,b,c --predict N=x,p=q``: every node measured over the grid and
  predicted at the target with its skeleton; the whole program is the sum of
  the top-level nodes and the extrapolated sequential remainder. When the
  target can run here (p at most the core count) it is measured too, and the
  error is printed beside each prediction.
"""

from __future__ import annotations

import argparse
import os

from autotune.cli.common import add_source_arguments, source_options
from autotune.cli.structure_predict import _predict
from autotune.cli.structure_shared import (
    _print_checks,
    _print_notes,
    _read,
    _run_settings,
    _sd,
    parse_threads,
    session_of,
)
from autotune.errors import UserError, require_c_file
from autotune.render import Progress, dump_json
from autotune.structure.nodes import ProgramTree, StructNode
from autotune.structure.tree import build_tree
from autotune.structure.tree_render import render_tree, size_text, skel, where


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE.c", help="C source file (with a main)")
    add_source_arguments(parser)
    m = parser.add_argument_group("measurement and prediction")
    m.add_argument(
        "--measure",
        action="store_true",
        help="time every node at the given defines (one instrumented build)",
    )
    m.add_argument(
        "--sizes",
        metavar="NAME=V1,V2,..",
        help="size macro and the values to measure, e.g. N=200,400,800",
    )
    m.add_argument(
        "--threads",
        metavar="LIST",
        help="thread counts to measure (default: 1 and the core count; with "
        "--measure only the core count)",
    )
    m.add_argument(
        "--predict", metavar="NAME=V,p=P", help="target point, e.g. N=1600,p=2 (needs --sizes)"
    )
    m.add_argument(
        "--repetitions", type=int, default=5, metavar="R", help="runs per point (default 5)"
    )
    m.add_argument(
        "--statistic",
        choices=("median", "min"),
        default="median",
        help="time of a node at a point over its runs: median (default) or min "
        "(the least disturbed run, for a busy machine)",
    )
    m.add_argument(
        "--no-target-run",
        action="store_true",
        help="do not measure the target point even when it can run here",
    )
    m.add_argument(
        "--timeout",
        type=float,
        default=300.0,
        metavar="S",
        help="time limit of one run (default 300)",
    )
    m.add_argument("--cc", default="gcc", help="compiler (default gcc)")
    m.add_argument("--args", default="", metavar='"ARGS"', help="the program's own arguments")
    o = parser.add_argument_group("output")
    o.add_argument("--json", action="store_true", help="machine-readable nested tree")
    o.add_argument("--plot", metavar="FILE.png", help="bar plot of predicted/measured times")
    o.add_argument("--quiet", action="store_true", help="no progress bar")


def run(args: argparse.Namespace) -> int:
    require_c_file(args.file)
    if args.repetitions < 1:
        raise UserError("--repetitions must be at least 1")
    if args.predict and not args.sizes:
        raise UserError("--predict needs --sizes (the grid to measure)")
    if args.sizes and not args.predict:
        raise UserError("--sizes needs --predict (the point to predict)")
    options = source_options(args)
    if args.sizes:
        return _predict(args, options)
    if args.measure:
        tree = build_tree(args.file, options, cc=args.cc, profiles=_profiles(args, options))
        return _measure(args, options, tree)
    tree = session_of(args, options).structure(args.file, _profiles(args, options))
    if args.json:
        dump_json(tree.to_dict())
        return 0
    print(f"{args.file}: parallel structure from main()")
    print(
        render_tree(
            tree, ["skeleton", "where", "size"], lambda n: [skel(n), where(n), size_text(n)]
        )
    )
    _print_notes(tree)
    return 0


def _profiles(args: argparse.Namespace, options) -> dict | None:
    """With --args: the loops' run-time sizes from one profile run (stored, reused)."""
    if not args.args:
        return None
    doc, note = session_of(args, options).profiles(args.file)
    if note and not args.json:
        print(note)
    return doc


# Over 60 lines: JSON and text forms of the measured tree, one after the other.
def _measure(args: argparse.Namespace, options, tree: ProgramTree) -> int:
    from autotune.structure.experiment import measure_tree

    threads = parse_threads(args.threads, [os.cpu_count() or 1])
    with Progress(len(threads) * args.repetitions, "structure", args.quiet) as bar:
        run = _run_settings(args, options, lambda at: bar.advance(note=at))
        done = measure_tree(_read(args.file), args.file, tree, threads, run)
    per_p, checks = done.per_p, done.checks
    extra = {
        n.id: {
            "measured": {
                str(p): {
                    "total_s": pt.total(n.id),
                    "per_execution_s": pt.per_execution(n.id),
                    "executions": pt.executions(n.id),
                    "relative_sd": pt.spread(n.id),
                    "samples": pt.samples(n.id) or None,
                }
                for p, pt in per_p.items()
            }
        }
        for n in tree.nodes()
        if n.timed
    }
    if args.plot:
        from autotune.structure.tree_render import plot_measured

        plot_measured(
            args.plot,
            tree,
            per_p,
            f"{os.path.basename(args.file)}: measured, "
            f"{args.statistic} of {args.repetitions} run(s)",
        )
    if args.json:
        dump_json(
            {
                **tree.to_dict(extra),
                "threads": threads,
                "repetitions": args.repetitions,
                "composition_checks": checks,
                "plot": args.plot,
            }
        )
        return 0
    print(
        f"{args.file}: every node timed, {args.repetitions} runs per thread count "
        f"(seconds per program run; {args.statistic} over runs)"
    )
    heads = ["skeleton", "where"] + [f"p={p} time" for p in threads] + ["execs", "sd"]

    def cells(n: StructNode) -> list:
        pts = list(per_p.values())
        return [
            skel(n),
            where(n),
            *[pt.total(n.id) if n.timed else None for pt in pts],
            pts[-1].executions(n.id) if n.timed else None,
            _sd(pts[-1].spread(n.id)) if n.timed else None,
        ]

    print(render_tree(tree, heads, cells))
    _print_checks(checks)
    _print_notes(tree)
    if args.plot:
        print(f"plot written to {args.plot}")
    return 0

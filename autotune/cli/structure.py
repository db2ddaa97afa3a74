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
import shlex
from pathlib import Path

from autotune.cli.common import add_source_arguments, parse_define, source_options
from autotune.errors import UserError
from autotune.measure.build import DEFAULT_CFLAGS, BuildOptions
from autotune.render import Progress, dump_json, table
from autotune.structure.nodes import ProgramTree, StructNode
from autotune.structure.tree import build_tree
from autotune.structure.tree_render import node_notes, render_tree, size_text, skel, where


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


# -- argument parsing ------------------------------------------------------------------------
def _number(text: str, what: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise UserError(f"{what}: {text!r} is not a number") from None
    if not v > 0:
        raise UserError(f"{what}: {text!r} must be positive")
    return v


def parse_sizes(text: str) -> tuple[str, list[float]]:
    name, _, values = text.partition("=")
    parse_define(name)
    if not values:
        raise UserError(f"--sizes {text!r}: write NAME=V1,V2,.. e.g. N=200,400,800")
    sizes = sorted({_number(v.strip(), "--sizes") for v in values.split(",") if v.strip()})
    if len(sizes) < 2:
        raise UserError("--sizes needs at least two sizes (three for the automatic method choice)")
    return name.strip(), sizes


def parse_target(text: str, size_name: str) -> tuple[float, int]:
    parts = dict(p.split("=", 1) for p in text.split(",") if "=" in p)
    if set(parts) != {size_name, "p"} or text.count("=") != 2:
        raise UserError(
            f"--predict {text!r}: write {size_name}=VALUE,p=THREADS (the size macro of --sizes)"
        )
    p = _number(parts["p"], "--predict p")
    if not p.is_integer():
        raise UserError(f"--predict p={parts['p']} must be a whole number of threads")
    return _number(parts[size_name], f"--predict {size_name}"), int(p)


def parse_threads(text: str | None, default: list[int]) -> list[int]:
    if not text:
        return default
    out = []
    for t in text.split(","):
        v = _number(t.strip(), "--threads")
        if not v.is_integer():
            raise UserError(f"--threads: {t!r} is not a whole number")
        out.append(int(v))
    return sorted(set(out))


# -- run ---------------------------------------------------------------------------------------
def run(args: argparse.Namespace) -> int:
    if not os.path.isfile(args.file):
        raise UserError(f"no such file: {args.file}")
    if args.repetitions < 1:
        raise UserError("--repetitions must be at least 1")
    if args.predict and not args.sizes:
        raise UserError("--predict needs --sizes (the grid to measure)")
    if args.sizes and not args.predict:
        raise UserError("--sizes needs --predict (the point to predict)")
    options = source_options(args)
    if args.sizes:
        return _predict(args, options)
    tree = build_tree(args.file, options, cc=args.cc, profiles=_profiles(args, options))
    if args.measure:
        return _measure(args, options, tree)
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


def _profiles(args: argparse.Namespace, options) -> dict | None:  # noqa: ANN001
    """With --args: the loops' run-time sizes from one profile run (stored, reused)."""
    if not args.args:
        return None
    from autotune.analysis import analyze_options
    from autotune.measure.profile import ProfileRequest, needs_profile, profile_with_store
    from autotune.measure.store import Store

    unit = analyze_options(args.file, options, cc=args.cc)
    if not needs_profile(unit.loops):
        return None
    req = ProfileRequest(
        Path(args.file),
        _read(args.file),
        _build_options(args, options),
        _program_args(args),
        timeout_s=args.timeout,
    )
    with Store(getattr(args, "db", None)) as store:
        doc, made = profile_with_store(req, unit.loops, store)
    if not args.json:
        print(
            f"profile run of the original with {args.args}: "
            + ("one build and one run made now" if made else "reused from the database")
        )
    return doc


def _build_options(args: argparse.Namespace, options) -> BuildOptions:
    return BuildOptions(
        cc=args.cc,
        cflags=[*DEFAULT_CFLAGS, *options.cflags],
        defines=dict(options.defines),
        include_dirs=list(options.include_dirs),
    )


def _measure(args: argparse.Namespace, options, tree: ProgramTree) -> int:
    from autotune.structure.program_runs import measure_points
    from autotune.structure.regions import instrument
    from autotune.structure.sections_model import composition_check

    threads = parse_threads(args.threads, [os.cpu_count() or 1])
    text, _slots, _ = instrument(_read(args.file), tree)
    points = [(None, p) for p in threads]
    with Progress(len(points) * args.repetitions, "structure", args.quiet) as bar:
        m = measure_points(
            text,
            args.file,
            points,
            size_name=None,
            repetitions=args.repetitions,
            build=_build_options(args, options),
            timeout_s=args.timeout,
            progress=lambda at: bar.advance(note=at),
            statistic=args.statistic,
            args=_program_args(args),
        )
    checks = []
    for node in tree.nodes():
        if node.kind == "sections" and node.timed:
            ids = [c.id for c in node.children if c.timed]
            for p in threads:
                c = composition_check(m.point(None, p), node.id, ids)
                if c is not None:
                    checks.append({"sections": node.id, **c})
    per_p = {p: m.point(None, p) for p in threads}
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


def _predict(args: argparse.Namespace, options) -> int:
    from autotune.structure.predict_program import ProgramPredictor
    from autotune.structure.program_runs import measure_points
    from autotune.structure.regions import instrument

    name, sizes = parse_sizes(args.sizes)
    n_star, p_star = parse_target(args.predict, name)
    cores = os.cpu_count() or 1
    threads = parse_threads(args.threads, sorted({1, cores}))
    opts_ref = _with_define(options, name, sizes[-1])
    tree = build_tree(args.file, opts_ref, cc=args.cc)
    tree_star = build_tree(args.file, _with_define(options, name, n_star), cc=args.cc)
    if {n.id for n in tree.nodes()} != {n.id for n in tree_star.nodes()}:
        tree.warnings.append(
            f"the structure at {name}={_num(n_star)} differs from the one at "
            f"{name}={_num(sizes[-1])}: nodes missing at the target are "
            "ignored"
        )
    text, _slots, _ = instrument(_read(args.file), tree)
    run_target = not args.no_target_run and p_star <= cores
    grid_points = [(n, p) for n in sizes for p in threads]
    total = (len(grid_points) + (1 if run_target else 0)) * args.repetitions
    build = _build_options(args, options)
    with Progress(total, "structure", args.quiet) as bar:

        def step(at: str) -> None:
            bar.advance(note=at)

        # the target's runs are interleaved with the grid's: both see the same machine
        target_point = (n_star, p_star)
        points = grid_points + (
            [target_point] if run_target and target_point not in grid_points else []
        )
        every = measure_points(
            text,
            args.file,
            points,
            size_name=name,
            repetitions=args.repetitions,
            build=build,
            timeout_s=args.timeout,
            progress=step,
            statistic=args.statistic,
            args=_program_args(args),
        )
        grid = every.subset(grid_points)
        target = every.subset([target_point]) if run_target else None
    est = ProgramPredictor(tree, tree_star, grid, n_star, p_star, target).run()
    whole = est[tree.root.id]
    if args.plot and whole.predicted is not None:
        from autotune.structure.tree_render import plot_prediction

        plot_prediction(
            args.plot,
            tree,
            est,
            f"{os.path.basename(args.file)}: {name}={_num(n_star)}, p={p_star}",
        )
    if args.json:
        extra = {
            i: {"prediction": e.to_dict(), "grid": _grid_rows(grid, i)} for i, e in est.items()
        }
        dump_json(
            {
                **tree.to_dict(extra),
                "size_name": name,
                "sizes": sizes,
                "statistic": args.statistic,
                "threads": threads,
                "repetitions": args.repetitions,
                "target": {name: n_star, "p": p_star, "measured": target is not None},
                "whole_program": {
                    "predicted_s": whole.predicted,
                    "measured_s": whole.measured,
                    "relative_error": whole.error,
                },
            }
        )
        return 0
    print(
        f"{args.file}: predicted at {name}={_num(n_star)}, p={p_star} from {name}="
        f"{','.join(_num(s) for s in sizes)} x p={','.join(map(str, threads))}, "
        f"{args.repetitions} runs each (seconds per program run, {args.statistic} over "
        "runs)"
    )
    if target is None:
        why = "--no-target-run" if args.no_target_run else f"p={p_star} > {cores} cores"
        print(f"target not measured here ({why})")

    def cells(n: StructNode) -> list:
        e = est.get(n.id)
        node_star = tree_star.root.find(n.id)
        return [
            skel(n),
            where(n),
            size_text(node_star or n),
            e.predicted if e else None,
            e.measured if e else None,
            _pct(e.error) if e else None,
        ]

    def remainder_row(n: StructNode, label: str) -> list:
        if n.kind != "program" or n.id not in est:
            return []
        d = est[n.id].details
        pred, meas = d.get("remainder_predicted_s"), d.get("remainder_measured_s")
        err = (pred - meas) / meas if pred is not None and meas else None
        prefix = "└─ " if not n.children else "├─ "
        return [[f"{prefix}(sequential remainder)", "task", "", "", pred, meas, _pct(err)]]

    print(
        render_tree(
            tree,
            ["skeleton", "where", "size", "predicted", "measured", "error"],
            cells,
            remainder_row,
        )
    )
    err = f", error {_pct(whole.error)}" if whole.error is not None else ""
    meas = f", measured {whole.measured:.4g} s" if whole.measured is not None else ""
    print(
        f"whole program: predicted {whole.predicted:.4g} s{meas}{err}"
        if whole.predicted is not None
        else "whole program: no prediction"
    )
    print("how:")
    for n in tree.nodes():
        if n.id in est and est[n.id].how:
            print(f"  {where(n)} {n.kind}: {est[n.id].how}")
    checks = [
        dict(sections=i, **c)
        for i, e in est.items()
        for c in e.details.get("composition_checks", [])
    ]
    _print_checks(checks)
    _print_notes(tree, est)
    if args.plot:
        print(f"plot written to {args.plot}")
    return 0


# -- helpers -----------------------------------------------------------------------------------
def _program_args(args: argparse.Namespace) -> list[str]:
    try:
        return shlex.split(args.args or "")
    except ValueError as exc:
        raise UserError(f"cannot split --args: {exc}") from None


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _with_define(options, name: str, value: float):
    from dataclasses import replace

    text = str(int(value)) if float(value).is_integer() else repr(value)
    return replace(options, defines={**options.defines, name: text})


def _grid_rows(m, node_id: str) -> list[dict]:
    return [
        {
            "n": pt.n,
            "p": pt.p,
            "total_s": pt.total(node_id),
            "per_execution_s": pt.per_execution(node_id),
            "executions": pt.executions(node_id),
            "relative_sd": pt.spread(node_id),
        }
        for pt in m.points.values()
        if pt.total(node_id) is not None
    ]


def _read(path: str) -> str:
    from autotune.variants.apply import read_source

    return read_source(path)


def _sd(x: float | None) -> str | None:
    return None if x is None else f"{x:.1%}"


def _pct(x: float | None) -> str | None:
    return None if x is None else f"{x:+.1%}"


def _print_checks(checks: list[dict]) -> None:
    if not checks:
        return
    print(
        "sections as binary composition (model from the sections' four moments vs the "
        "measured construct, per execution):"
    )
    rows = []
    for c in checks:
        model = c["model"]
        at = (f"n={_num(c['n'])}," if c.get("n") is not None else "") + f"p={c['p']}"
        rows.append(
            [
                os.path.basename(c["sections"]),
                at,
                "x".join(map(str, c["samples"])),
                model["exact"],
                model["lambda"],
                model["deterministic"],
                c["measured_region_per_execution"],
                c["measured_mean_of_max"],
                _pct(c["error_vs_region"]["exact"]),
            ]
        )
    print(
        table(
            [
                "sections",
                "at",
                "samples",
                "E[max] exact",
                "E[max] paper",
                "max means",
                "measured",
                "mean of max",
                "error",
            ],
            rows,
        )
    )


def _print_notes(tree: ProgramTree, est: dict | None = None) -> None:
    lines = [f"  {w}" for w in tree.warnings] + node_notes(tree)
    if est:
        for n in tree.nodes():
            e = est.get(n.id)
            for note in e.notes if e else []:
                lines.append(f"  {where(n)} {n.kind}: {note}")
    if lines:
        print("notes:")
        print("\n".join(dict.fromkeys(lines)))

"""``autotune structure --sizes ... --predict ...``: every node measured over a grid and
predicted at the target with its skeleton; the target measured too where it can run."""

from __future__ import annotations

import argparse
import os

from autotune.cli.common import parse_define
from autotune.cli.structure_shared import (
    _num,
    _number,
    _pct,
    _print_checks,
    _print_notes,
    _read,
    _run_settings,
    parse_threads,
)
from autotune.errors import UserError
from autotune.render import Progress, dump_json
from autotune.structure.nodes import StructNode
from autotune.structure.tree_render import render_tree, size_text, skel, where


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


def _predict(args: argparse.Namespace, options) -> int:
    from autotune.structure.experiment import predict_tree

    name, sizes = parse_sizes(args.sizes)
    n_star, p_star = parse_target(args.predict, name)
    cores = os.cpu_count() or 1
    threads = parse_threads(args.threads, sorted({1, cores}))
    run_target = not args.no_target_run and p_star <= cores
    points = len(sizes) * len(threads) + (1 if run_target else 0)
    with Progress(points * args.repetitions, "structure", args.quiet) as bar:
        done = predict_tree(
            _read(args.file),
            args.file,
            options,
            name,
            sizes,
            threads,
            (n_star, p_star),
            _run_settings(args, options, lambda at: bar.advance(note=at)),
            measure_target=run_target,
            cc=args.cc,
        )
    return _show(args, done, name, sizes, threads, (n_star, p_star))


def _show(args: argparse.Namespace, done, name: str, sizes, threads, at) -> int:
    """Plot, JSON or the tree table of a prediction (``at``: the target n, p)."""
    n_star, p_star = at
    cores = os.cpu_count() or 1
    tree, grid, target, est = done.tree, done.grid, done.target, done.estimates
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
    _print_prediction(args, done, name, sizes, threads, at, cores)
    return 0


# Over 60 lines: the predicted tree table, the whole program, how and the checks.
def _print_prediction(args, done, name, sizes, threads, at, cores) -> None:
    n_star, p_star = at
    tree, tree_star, target, est = done.tree, done.tree_star, done.target, done.estimates
    whole = est[tree.root.id]
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

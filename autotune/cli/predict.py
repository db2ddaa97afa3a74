"""``autotune predict``: skeleton-based estimate of T(n, p) from a table of times.

Prints T(n), Abar(n, p) and T(n, p), the method chosen for each and why (every
method's error on the points it was checked against). A failed choice ("take
more measurements") still prints the evidence, then exits with status 2.
"""

from __future__ import annotations

import argparse
import sys

from autotune import render
from autotune.errors import UserError

METHOD_CHOICES = ("auto", "spline", "loess", "lmpoly", "lm", "powerlaw", "mean")


# Over 60 lines: one declaration per option; --help reads them in this order.
def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "table", help="CSV: n,p,time (long) or n,T_n_1,T_n_7,... (wide) or p,T_n_p (one size)"
    )
    parser.add_argument(
        "--skeleton",
        choices=("parmap", "farm", "dc", "iteration"),
        default="parmap",
        help="parallel structure (default parmap)",
    )
    parser.add_argument(
        "--at",
        required=True,
        metavar="n=N,p=P",
        help="the point to estimate, e.g. n=120,p=7 (n may be left out for a table of one size)",
    )
    parser.add_argument(
        "--method",
        choices=METHOD_CHOICES,
        default="auto",
        help="method for T(n) (and Abar unless --method-abar); default auto",
    )
    parser.add_argument(
        "--method-abar",
        choices=METHOD_CHOICES,
        default=None,
        help="method for Abar(n,p) (default: as --method)",
    )
    parser.add_argument("--degree", type=int, default=3, help="lm(poly) degree (default 3)")
    parser.add_argument(
        "--select",
        choices=("real-life", "known"),
        default="real-life",
        help="auto choice: check on the last known points (real-life, default) "
        "or on the true value at the target, which must be in the table "
        "(known; the paper's experiments)",
    )
    parser.add_argument(
        "--epsilon",
        default="2%",
        help="acceptable relative error for the auto choice (default 2%%; "
        "2, 2%% and 0.02 all mean 2%%); raised to twice the held-out "
        "points' noise where the table has repeated rows or a noise "
        "column",
    )
    parser.add_argument(
        "--strict",
        action="store_true",
        help="the paper's protocol: fail (exit 2) when no method passes its "
        "check, instead of giving the best estimate marked UNCHECKED "
        "with the measurements that would help",
    )
    parser.add_argument(
        "--holdout",
        type=int,
        default=1,
        help="real-life check: how many last known points to predict (default 1)",
    )
    parser.add_argument(
        "--mean-strategy",
        choices=("two-best", "three-drop-outlier"),
        default="two-best",
        help="real-life mean: of the two best in training, "
        "or of the three best dropping the outlier",
    )
    parser.add_argument(
        "--reference",
        choices=("auto", "absolute", "relative", "scaled"),
        default="auto",
        help="what T(n) is: sequential runs (absolute), "
        "T(n,1) (relative) or p0*T(n,p0) (scaled); default: first available",
    )
    parser.add_argument(
        "--known",
        metavar="COND",
        help="use only rows meeting e.g. n<=100 or p<=6 (the paper hides the values it predicts)",
    )
    parser.add_argument(
        "--where",
        action="append",
        default=[],
        metavar="COL=VALUE",
        help="select rows of a table holding several data sets (set=uniform)",
    )
    parser.add_argument("--tasks", type=int, help="farm: number of statically dealt tasks")
    parser.add_argument("--iterations", type=int, help="iteration: number of iterations k")
    parser.add_argument("--branching", type=int, help="dc: branching degree r")
    parser.add_argument("--depth", type=int, help="dc: depth d of the flat expansion")
    parser.add_argument(
        "--penalties",
        action="store_true",
        help="also print Abar and the Karp-Flatt serial fraction by p and by n",
    )
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--plot", metavar="FILE.png", help="draw points, curves and estimate")


def _parse_at(text: str) -> tuple[float | None, int]:
    values: dict[str, float] = {}
    for part in text.split(","):
        key, sep, val = part.partition("=")
        key = key.strip().lower()
        if not sep or key not in ("n", "p"):
            raise UserError(f"--at: cannot read {part!r}; write n=120,p=7")
        try:
            values[key] = float(val)
        except ValueError:
            raise UserError(f"--at: {key} must be a number, got {val!r}") from None
    if "p" not in values:
        raise UserError("--at needs p (e.g. n=120,p=7)")
    p = values["p"]
    if p != int(p) or p < 1:
        raise UserError(f"--at: p must be a whole number >= 1, got {p:g}")
    return values.get("n"), int(p)


def _parse_epsilon(text: str) -> float:
    """``2%`` or ``2`` mean 2%; a plain number below 1 is a fraction (``0.02`` = 2%)."""
    try:
        text = text.strip()
        eps = float(text[:-1]) / 100 if text.endswith("%") else float(text)
        if not text.endswith("%") and eps >= 1:
            eps /= 100  # "--epsilon 2" is read as the help's "2%", never as 200%
    except ValueError:
        raise UserError(f"--epsilon: not a number: {text!r}") from None
    if not eps > 0:
        raise UserError("--epsilon must be positive")
    return eps


def _where(items: list[str]) -> dict[str, str]:
    out = {}
    for item in items:
        key, sep, val = item.partition("=")
        if not sep or not key.strip():
            raise UserError(f"--where: write COLUMN=VALUE, got {item!r}")
        out[key.strip()] = val.strip()
    return out


def run(args: argparse.Namespace) -> int:
    from autotune.skeletons.predictor import predict_point
    from autotune.skeletons.scalability import penalty_table
    from autotune.skeletons.skeleton import Skeleton
    from autotune.skeletons.tables import read_table

    n, p = _parse_at(args.at)
    table = read_table(args.table, _where(args.where))
    skeleton = Skeleton(
        args.skeleton,
        tasks=args.tasks,
        iterations=args.iterations,
        branching=args.branching,
        depth=args.depth,
    )
    if args.degree < 1:
        raise UserError("--degree must be at least 1")
    pred = predict_point(
        table,
        skeleton,
        n,
        p,
        args.method,
        method_abar=args.method_abar,
        mode=args.select,
        epsilon=_parse_epsilon(args.epsilon),
        holdout=args.holdout,
        mean_strategy=args.mean_strategy,
        reference=args.reference,
        known=args.known,
        degree=args.degree,
        best_effort=args.select == "real-life" and not args.strict,
    )
    penalties = penalty_table(table, skeleton, args.reference) if args.penalties else None
    if args.plot:
        from autotune.skeletons.plot import plot_prediction

        plot_prediction(pred, args.plot)
        if not args.json:
            print(f"plot written to {args.plot}")
    if args.json:
        doc = pred.to_dict()
        doc["table"] = args.table
        if penalties is not None:
            doc["penalties"] = penalties.to_dict()
        render.dump_json(doc)
    else:
        _print_text(pred, table, args, penalties)
    if not pred.ok:
        raise UserError(pred.failure)
    return 0


def _fmt_err(v: float | None) -> str:
    return "-" if v is None else f"{v:+.2%}"


def _print_choice(c, out) -> None:
    if c.measured:
        print(f"{c.series}: {c.value:.6g} ({c.reason})", file=out)
        print(file=out)
        return
    xs = ", ".join(f"{v:g}" for v in c.x)
    if c.mode == "known":
        judged = f"error on the true value {c.actual:.6g}"
    elif c.holdout:
        judged = (
            f"mean error predicting held-out {c.axis}="
            f"{', '.join(f'{v:g}' for v in c.holdout)} from the points before"
        )
    else:
        judged = "not checked (too few points to hold any out)"
    print(f"{c.series} over {c.axis} = {xs}; target {c.axis}={c.at:g}; check: {judged}", file=out)
    rows = [[r.label, _fmt_err(r.error), r.estimate, r.note or ""] for r in c.results]
    render.table(["method", "check error", f"estimate at {c.axis}={c.at:g}", "note"], rows, out=out)
    if c.epsilon_note:
        print(f"   {c.epsilon_note}", file=out)
    verdict = (
        f"-> {c.chosen_label}: {c.reason}"
        if c.ok
        else f"-> {c.reason}"
        if c.unchecked
        else f"-> FAILED: {c.reason}"
    )
    print(verdict, file=out)
    print(file=out)


def _print_text(pred, table, args, penalties) -> None:
    out = sys.stdout
    sizes = table.sizes()
    size_text = "one size" if table.fixed_n else f"{len(sizes)} sizes"
    print(
        f"table: {args.table} ({size_text}, p = {', '.join(map(str, table.pes()))})"
        + (f"; rows used: {args.known}" if args.known else ""),
        file=out,
    )
    print_prediction(pred, out, fixed_n=table.fixed_n)
    if penalties is not None:
        print(file=out)
        print(f"parallel penalty Abar and serial fraction f ({penalties.reference.note})", file=out)
        for headers, prow in (penalties.by_p(), penalties.by_n()):
            render.table(headers, prow, out=out)
            print(file=out)


def _karp_flatt(f: float | None) -> str:
    """Karp and Flatt's metric is a fraction only between 0 and 1: above 1 the parallel
    run is slower than the reference, below 0 faster than p-fold; said, not printed bare."""
    if f is None:
        return "-"
    if f > 1:
        return f"{f:.3g} (above 1: T(n,p) is slower than the reference T(n))"
    if f < 0:
        return f"{f:.3g} (below 0: superlinear, faster than p-fold)"
    return f"{f:.3g}"


def print_prediction(pred, out, fixed_n: bool = False) -> None:
    """The evidence for each series and the estimate; shared with ``autotune scale``."""
    for note in pred.notes:
        print(f"note: {note}", file=out)
    print(f"skeleton: {pred.skeleton.kind}: T(n,p) = {pred.skeleton.formula()}", file=out)
    print(pred.reference, file=out)
    where = {
        "p": "over p at the target size",
        "n": "over n at the target p",
        "n,p": "over n for each measured p, then over p",
        "none": "(not needed)",
    }[pred.direction]
    n_text = "n" if fixed_n else f"n={pred.n:g}"
    print(f"target: {n_text}, p={pred.p}; Abar extrapolated {where}", file=out)
    print(file=out)
    _print_choice(pred.t_seq, out)
    for c in pred.inner:
        _print_choice(c, out)
    _print_choice(pred.abar, out)
    label = "T(n)" if fixed_n else f"T({pred.n:g})"

    def shown(c) -> str:
        if not c.has_value:
            return "-"
        mark = ", UNCHECKED" if c.unchecked else ""
        return f"{c.value:.6g} [{c.chosen_label}{mark}]"

    time_label = f"T(n,{pred.p}) = W + Abar" + (" (UNCHECKED)" if pred.unchecked else "")
    rows = [
        [label, shown(pred.t_seq)],
        [f"Abar(n,{pred.p})", shown(pred.abar)],
        [f"W(n,{pred.p})", pred.work],
        [time_label, pred.time],
        [
            "uncertainty (check errors)",
            "-" if pred.uncertainty is None else f"+-{pred.uncertainty:.1%}",
        ],
        ["serial fraction f (Karp-Flatt)", _karp_flatt(pred.serial_fraction)],
    ]
    if pred.measured is not None:
        rows.append([f"measured T(n,{pred.p})", pred.measured])
        rows.append(["relative error", _fmt_err(pred.error)])
    render.table(["quantity", "estimate"], rows, out=out)
    if pred.unchecked:
        print(
            "UNCHECKED: no method passed its check for every component; the best estimate "
            "is given, and more measurements would make it checkable",
            file=out,
        )
    for hint in pred.suggestions:
        print(f"would help: {hint}", file=out)
    if pred.abar.has_value and pred.abar.value < 0:
        print(
            f"note: Abar(n,{pred.p}) is negative: the parallel runs are faster than T(n)/p "
            "(superlinear speedup, e.g. the data fits the caches of more cores), so the "
            "penalty is a correction, not an overhead",
            file=out,
        )

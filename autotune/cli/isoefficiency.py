"""``autotune isoefficiency``: how fast the workload must grow to hold efficiency.

Default: the block-decomposition model of Janovic and Hanuliak with Cray T3E constants
(ts = 3 us, tw = 0.063 us, n = 1024), w(p) = max[8 C p ts/tc, 8 C n sqrt(p) tw/tc]
for each efficiency E (C = E/(1-E)); the workload is in seconds of useful
work unless --tc (seconds per operation) converts it to operations.

With --measurements CSV (columns n,p,seconds; p = 1 rows give T(n)) the
overhead comes from our own runs instead: Abar(n,p) = T(n,p) - T(n)/p, and the
table gives the problem size n needed to hold E at each p.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from collections import defaultdict

import numpy as np

from autotune import render
from autotune.errors import UserError
from autotune.render import save_figure
from autotune.structmodels import isoefficiency as iso
from autotune.structmodels.textio import parse_floats, read_table

DEFAULT_P = "9,16,36,64,144,256,576,1024,4096"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--ts",
        type=float,
        default=iso.T3E_TS,
        help=f"start-up time, s (default {iso.T3E_TS:g}: the paper's Cray T3E)",
    )
    parser.add_argument(
        "--tw",
        type=float,
        default=iso.T3E_TW,
        help=f"per-word time, s (default {iso.T3E_TW:g}: the paper's Cray T3E)",
    )
    parser.add_argument(
        "--n",
        type=float,
        default=iso.FIGURE7_N,
        help=f"matrix side n (default {iso.FIGURE7_N:g}, the paper's figure 7)",
    )
    parser.add_argument(
        "--tc",
        type=float,
        default=1.0,
        help="seconds per operation (default 1: workload in seconds)",
    )
    parser.add_argument(
        "--efficiency",
        default=",".join(str(e) for e in iso.FIGURE7_E),
        metavar="E,..",
        help="efficiencies in (0,1) (default 0.1..0.9)",
    )
    parser.add_argument(
        "--p",
        default=None,
        metavar="P,..",
        help=f"processor counts (default {DEFAULT_P}; with --measurements: the measured ones)",
    )
    parser.add_argument(
        "--form",
        choices=("max", "sum"),
        default="max",
        help="max: the paper's w(s); sum: the full C p h it bounds",
    )
    parser.add_argument(
        "--allow-small-p",
        action="store_true",
        help="evaluate the block model for p < 9 anyway (outside its validity)",
    )
    parser.add_argument(
        "--measurements", metavar="CSV", help="empirical mode: a table with columns n,p,seconds"
    )
    parser.add_argument(
        "--n-range",
        default=None,
        metavar="MIN,MAX",
        help="empirical mode: sizes searched (default: measured min to 1000x max)",
    )
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--plot", metavar="FILE.png", help="plot w(p) (or n(p)) per efficiency")


def _efficiencies(text: str) -> list[float]:
    es = parse_floats(text, "--efficiency")
    bad = [e for e in es if not 0 < e < 1]
    if bad:
        raise UserError(f"--efficiency: values must lie strictly between 0 and 1, got {bad}")
    return es


def _procs(text: str) -> list[float]:
    ps = parse_floats(text, "--p")
    if any(p < 1 for p in ps):
        raise UserError(f"--p: processor counts must be >= 1, got {text!r}")
    return ps


def run(args: argparse.Namespace) -> int:
    es = _efficiencies(args.efficiency)
    if args.measurements:
        return _run_empirical(args, es)
    ps = _procs(args.p or DEFAULT_P)
    _check_block(args, ps)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # warned once above, in the CLI's words
        h = iso.block_overhead(args.n, ps, args.ts, args.tw, strict=False)
        curves = {
            e: iso.block_isoefficiency(
                e, args.n, ps, args.ts, args.tw, args.tc, args.form, strict=False
            )
            for e in es
        }
    unit = "s" if args.tc == 1.0 else "operations"
    cross = iso.crossover_p(args.n, args.ts, args.tw)
    if args.plot:
        _plot_block(args, ps, es, unit, cross)
    if args.json:
        render.dump_json(
            {
                "model": "block",
                "form": args.form,
                "ts": args.ts,
                "tw": args.tw,
                "n": args.n,
                "tc": args.tc,
                "unit": unit,
                "crossover_p": cross,
                "rows": [
                    {
                        "p": p,
                        "h": float(h[i]),
                        "valid": p >= iso.BLOCK_MIN_P,
                        "w": {str(e): float(curves[e][i]) for e in es},
                    }
                    for i, p in enumerate(ps)
                ],
            }
        )
        return 0
    print(
        f"block decomposition: h = 8 (ts + n/sqrt(p) tw), w = {args.form}"
        f"[8 C p ts/tc, 8 C n sqrt(p) tw/tc], C = E/(1-E); workload in {unit}"
    )
    rows = [
        [
            f"{p:g}" + ("" if p >= iso.BLOCK_MIN_P else " (invalid)"),
            float(h[i]),
            *(float(curves[e][i]) for e in es),
        ]
        for i, p in enumerate(ps)
    ]
    print(render.table(["p", "h [s]", *(f"w E={e:g}" for e in es)], rows))
    print(f"start-up term dominates for p > {cross:.1f} (sqrt(p) = n tw/ts)")
    if args.plot:
        print(f"plot: {args.plot}")
    return 0


def _check_block(args: argparse.Namespace, ps: list[float]) -> None:
    """Positive parameters; p in the block model's range unless --allow-small-p."""
    for name in ("ts", "tw", "n", "tc"):
        if not getattr(args, name) > 0:
            raise UserError(f"--{name} must be positive")
    small = [p for p in ps if p < iso.BLOCK_MIN_P]
    if small and not args.allow_small_p:
        raise UserError(
            f"the block model holds for p >= {iso.BLOCK_MIN_P} only (a 3x3 grid of "
            f"blocks at least); got p = {small}. Use --allow-small-p to evaluate "
            "it anyway"
        )
    if small:
        print(
            f"autotune: warning: p = {small} is below the block model's validity "
            f"(p >= {iso.BLOCK_MIN_P}); those rows are marked invalid",
            file=sys.stderr,
        )


def _plot_block(args: argparse.Namespace, ps: list[float], es: list[float], unit, cross) -> None:
    dense = list(np.geomspace(min(ps), max(ps), 200)) if len(ps) > 1 else ps
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        smooth = {
            e: iso.block_isoefficiency(
                e, args.n, dense, args.ts, args.tw, args.tc, args.form, strict=False
            )
            for e in es
        }
    _plot(
        args.plot,
        dense,
        smooth,
        f"w(p) [{unit}]",
        f"Isoefficiency, square blocks (n={args.n:g}, ts={args.ts:g}, tw={args.tw:g})",
        cross,
    )


# Over 60 lines: fit, table and plot of measured isoefficiency, one after another.
def _run_empirical(args: argparse.Namespace, es: list[float]) -> int:
    rows = read_table(args.measurements, ("n", "p", "seconds"))
    times: dict[tuple[float, float], list[float]] = defaultdict(list)
    for r in rows:
        if r["n"] <= 0 or r["p"] < 1 or r["seconds"] <= 0:
            raise UserError(
                "n, seconds must be positive and p >= 1 in every row", args.measurements
            )
        times[(r["n"], r["p"])].append(r["seconds"])
    mean = {k: float(np.mean(v)) for k, v in times.items()}
    ns = sorted({n for n, p in mean if p == 1})
    ps_meas = sorted({p for _, p in mean if p > 1})
    if len(ns) < 2 or len(ps_meas) < 2:
        raise UserError(
            "need p = 1 times at two or more sizes n and runs at two or more p > 1 to interpolate",
            args.measurements,
        )
    missing = [(n, p) for n in ns for p in ps_meas if (n, p) not in mean]
    if missing:
        raise UserError(
            f"the table is not a full grid: no time for (n, p) = {missing[0]}", args.measurements
        )
    abar = np.array([[mean[(n, p)] - mean[(n, 1.0)] / p for p in ps_meas] for n in ns])
    t_seq = iso.loglog_interpolator(ns, [mean[(n, 1.0)] for n in ns])
    model = iso.EmpiricalIsoefficiency(t_seq, iso.grid_interpolator(ns, ps_meas, abar))
    lo, hi = (
        parse_floats(args.n_range, "--n-range", count=2)
        if args.n_range
        else (ns[0], 1000.0 * ns[-1])
    )
    if not 0 < lo < hi:
        raise UserError("--n-range: need 0 < MIN < MAX")
    ps = _procs(args.p) if args.p else ps_meas
    points = {e: model.curve(e, ps, lo, hi) for e in es}
    if args.plot:
        curves = {
            e: np.array([pt.n if pt.n is not None else np.nan for pt in pts])
            for e, pts in points.items()
        }
        _plot(args.plot, ps, curves, "problem size n", "Empirical isoefficiency", None)
    if args.json:
        render.dump_json(
            {
                "model": "empirical",
                "measurements": args.measurements,
                "n_range": [lo, hi],
                "abar": {"n": ns, "p": ps_meas, "values": abar},
                "points": [pt for pts in points.values() for pt in pts],
            }
        )
        return 0
    print(
        "empirical isoefficiency: E(n,p) = T(n) / (T(n) + p Abar(n,p)), "
        "Abar = T(n,p) - T(n)/p from the measurements"
    )
    table_rows = [[f"{p:g}", *(_cell(points[e][i]) for e in es)] for i, p in enumerate(ps)]
    print(render.table(["p", *(f"n for E={e:g}" for e in es)], table_rows))
    print(
        f"sizes searched in [{lo:g}, {hi:g}]; T(n) log-log interpolated, Abar bilinear in "
        "(log n, log p), both extended beyond the measured range"
    )
    if args.plot:
        print(f"plot: {args.plot}")
    return 0


def _cell(pt: iso.IsoPoint) -> str:
    if pt.status == "ok":
        return f"{pt.n:.4g}"
    return f"<= {pt.n:g}" if pt.status == "below-range" else "not reached"


def _plot(
    path: str,
    ps: list[float],
    curves: dict[float, np.ndarray],
    ylabel: str,
    title: str,
    cross: float | None,
) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for e, w in curves.items():
        ax.plot(ps, w, marker="o" if len(ps) < 50 else None, ms=3, label=f"E = {e:g}")
    if cross is not None and min(ps) <= cross <= max(ps):
        ax.axvline(cross, color="grey", ls=":", lw=1, label=f"start-up dominates, p > {cross:.0f}")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("processors p")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=8)
    fig.tight_layout()
    save_figure(fig, path)

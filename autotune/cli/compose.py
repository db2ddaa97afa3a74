"""``autotune compose``: E[max(X1, X2)^k] for two stochastic task times (seed 002).

Each task is a sample file (one time per line) or a moment vector
mean,variance,skewness,kurtosis (kurtosis 3 for a normal). Both are fitted
with a lambda distribution; E[Y], E[Y^2] of Y = max(X1, X2) are printed by
every method, and with two sample files also the empirical value over all
independent pairs.
"""

from __future__ import annotations

import argparse

import numpy as np

from autotune import render
from autotune.errors import UserError
from autotune.render import save_figure
from autotune.structmodels.composition import (
    compose,
    empirical_max_moment,
    heuristic_choice,
    moment_label,
)
from autotune.structmodels.moments import Moments
from autotune.structmodels.textio import parse_floats, read_samples

NOTES = {
    "deterministic": "max of the means (eq. 1 on means)",
    "heuristic": "eq. 4: larger mean (tie: larger E[X^2]) is X{}",
    "lambda": "eq. 5: pointwise max of the quantiles (paper)",
    "exact": "order statistics on the two lambda fits",
    "empirical": "all independent pairs of the two samples",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "samples",
        nargs="*",
        metavar="FILE",
        help="task time samples, one number per line (up to two files)",
    )
    parser.add_argument(
        "--m1", metavar="MEAN,VAR,SKEW,KURT", help="task 1 as four moments instead of a file"
    )
    parser.add_argument(
        "--m2", metavar="MEAN,VAR,SKEW,KURT", help="task 2 as four moments instead of a file"
    )
    parser.add_argument(
        "--orders",
        default="1,2",
        metavar="K,..",
        help="moments of Y to predict, from 1..4 (default 1,2)",
    )
    parser.add_argument(
        "--tol",
        type=float,
        default=1e-6,
        help="residual (skewness, kurtosis) under which a lambda fit is exact",
    )
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument(
        "--plot", metavar="FILE.png", help="plot both fitted densities and the density of the max"
    )


def _moments_arg(text: str, option: str) -> Moments:
    vals = parse_floats(text, option, count=4)
    try:
        return Moments(*vals)
    except ValueError as exc:
        raise UserError(f"{option}: {exc}") from None


def _tasks(args: argparse.Namespace) -> list[tuple[str, Moments, np.ndarray | None]]:
    files = list(args.samples)
    if len(files) > 2:
        raise UserError(f"at most two sample files, got {len(files)}")
    tasks = []
    for option, vec in (("--m1", args.m1), ("--m2", args.m2)):
        if vec is not None:
            tasks.append((option, _moments_arg(vec, option), None))
        elif files:
            path = files.pop(0)
            x = read_samples(path)
            tasks.append((path, Moments.from_samples(x), x))
    if files or len(tasks) != 2:
        raise UserError(
            "give two tasks: two sample files, or --m1 and --m2 (or one file and one moment vector)"
        )
    return tasks


# Over 60 lines: checks, the composition, then its JSON or the two printed tables.
def run(args: argparse.Namespace) -> int:
    raw = parse_floats(args.orders, "--orders")
    orders = tuple(int(k) for k in raw)
    if any(k not in (1, 2, 3, 4) or k != r for k, r in zip(orders, raw, strict=True)):
        raise UserError(f"--orders: moments 1..4 only, got {args.orders!r}")
    if not args.tol > 0:
        raise UserError("--tol must be positive")
    tasks = _tasks(args)
    comp = compose(tasks[0][1], tasks[1][1], orders, tol=args.tol)
    values = dict(comp.values)
    s1, s2 = tasks[0][2], tasks[1][2]
    if s1 is not None and s2 is not None:
        values["empirical"] = [empirical_max_moment(s1, s2, k) for k in orders]
    chosen = heuristic_choice(tasks[0][1], tasks[1][1])
    if args.plot:
        _plot(args.plot, comp, s1, s2)
    if args.json:
        out = comp.to_dict()
        out["moments_of_max"] = {
            m: dict(zip(map(moment_label, orders), v, strict=True)) for m, v in values.items()
        }
        for t, (src, _, _) in zip(out["tasks"], tasks, strict=True):
            t["source"] = src
        out["heuristic_choice"] = f"X{chosen}"
        render.dump_json(out)
        return 0
    rows = []
    for i, ((src, m, _), g) in enumerate(zip(tasks, comp.fits, strict=True), 1):
        rows.append(
            [
                f"X{i}",
                src,
                m.mean,
                m.variance,
                m.skewness,
                m.kurtosis,
                *g.lambdas_,
                g.residual_,
                "exact" if g.exact_ else "approximate",
            ]
        )
    print("lambda fits Q(u) = l1 + (u^l3 - (1-u)^l4)/l2 (residual: skewness/kurtosis error)")
    print(
        render.table(
            [
                "task",
                "source",
                "mean",
                "var",
                "skew",
                "kurt",
                "l1",
                "l2",
                "l3",
                "l4",
                "residual",
                "fit",
            ],
            rows,
        )
    )
    print()
    print("moments of Y = max(X1, X2)")
    heads = ["method", *map(moment_label, orders), "how"]
    print(render.table(heads, [[m, *v, NOTES[m].format(chosen)] for m, v in values.items()]))
    if not all(g.exact_ for g in comp.fits):
        print("note: no exact lambda fit for a task; its residual is shown above")
    if args.plot:
        print(f"plot: {args.plot}")
    return 0


def _plot(path: str, comp, s1: np.ndarray | None, s2: np.ndarray | None) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    g1, g2 = comp.fits
    u = np.linspace(1e-4, 1 - 1e-4, 800)
    q1, q2 = g1.quantile(u), g2.quantile(u)
    lo, hi = min(q1.min(), q2.min()), max(q1.max(), q2.max())
    y = np.linspace(lo, hi, 800)
    f_max = np.gradient(g1.cdf(y) * g2.cdf(y), y)  # d/dy F1 F2: exact density of the max
    qm = np.maximum(q1, q2)  # the paper's approximation, drawn as a quantile function
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for s, colour in ((s1, "C0"), (s2, "C1")):
        if s is not None:
            ax.hist(s, bins=60, density=True, alpha=0.25, color=colour)
    ax.plot(q1, g1.density_at(u), "C0", label="X1 (lambda fit)")
    ax.plot(q2, g2.density_at(u), "C1", label="X2 (lambda fit)")
    ax.plot(y, f_max, "k", label="max, exact (F1 F2)")
    dens_m = 1.0 / np.gradient(qm, u)
    ax.plot(qm, dens_m, "k--", lw=1, label="max, eq. 5 (pointwise quantile max)")
    ax.set_xlabel("time")
    ax.set_ylabel("density")
    ax.set_title("Binary parallel composition Y = max(X1, X2)")
    ax.legend()
    fig.tight_layout()
    save_figure(fig, path)

"""Figures like the paper's Figures 2-6: measured points, every method's curve, the estimate."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from autotune.errors import UserError
from autotune.render import save_figure
from autotune.skeletons.estimators import LABELS, column, make_estimator
from autotune.skeletons.predictor import Prediction
from autotune.skeletons.selection import Choice

_COLOURS = {
    "spline": "tab:blue",
    "loess": "tab:orange",
    "lmpoly": "tab:green",
    "lm": "tab:gray",
    "powerlaw": "tab:purple",
}


def _panel(ax, choice: Choice) -> None:
    x = np.asarray(choice.x, dtype=float)
    y = np.asarray(choice.y, dtype=float)
    lo, hi = min(x.min(), choice.at), max(x.max(), choice.at)
    grid = np.linspace(lo, hi, 200)
    for r in choice.results:
        if r.method not in _COLOURS or r.estimate is None:
            continue
        try:
            curve = (
                make_estimator(r.method, degree=choice.degree)
                .fit(column(x), y)
                .predict(column(grid))
            )
        except UserError:
            continue
        style = "-" if r.method == choice.chosen or r.method in choice.components else "--"
        ax.plot(grid, curve, style, color=_COLOURS[r.method], lw=1.2, label=LABELS[r.method])
    ax.plot(x, y, "ko", ms=4, label="measured")
    if choice.holdout:
        held = np.isin(x, choice.holdout)
        ax.plot(x[held], y[held], "o", mfc="none", mec="red", ms=9, label="held out (check)")
    if choice.value is not None:
        ax.plot([choice.at], [choice.value], "r*", ms=13, label=f"estimate ({choice.chosen_label})")
    if choice.actual is not None:
        ax.plot([choice.at], [choice.actual], "kx", ms=9, label="true value")
    marks = [v for v in (choice.value, choice.actual) if v is not None]
    lo_y, hi_y = min([float(y.min()), *marks]), max([float(y.max()), *marks])
    pad = 0.25 * max(hi_y - lo_y, abs(hi_y), 1e-12)
    ax.set_ylim(lo_y - pad, hi_y + pad)
    ax.set_xlabel(choice.axis)
    ax.set_ylabel(f"{choice.series}, time units of the table (s)")
    ax.set_title(f"{choice.series} at {choice.axis}={choice.at:g}", fontsize=10)
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)


def plot_prediction(pred: Prediction, path: str | Path) -> Path:
    """Write a PNG with one panel per estimated series (T(n) and Abar)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = [c for c in (pred.t_seq, pred.abar) if not c.measured and len(c.x) >= 1]
    if not panels:
        raise UserError("nothing was estimated, so there is nothing to plot")
    fig, axes = plt.subplots(1, len(panels), figsize=(5.5 * len(panels), 4.2), squeeze=False)
    for ax, choice in zip(axes[0], panels, strict=True):
        _panel(ax, choice)
    total = "failed" if pred.time is None else f"{pred.time:.4g}"
    fig.suptitle(f"{pred.skeleton.kind}: T({pred.n_text},{pred.p}) estimate {total}", fontsize=11)
    fig.tight_layout()
    path = Path(path)
    save_figure(fig, str(path), dpi=110)
    return path


# Over 60 lines: one labelled matplotlib figure.
def plot_scalability(points, pred: Prediction, path: str | Path, macro: str = "n") -> Path:
    """Two labelled panels over p, one line per measured size: the parallel penalty
    Abar(n,p) = T(n,p) - W(n,p), and the Karp-Flatt serial fraction f(n,p). The
    target's estimate is marked on both."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from autotune.skeletons.scalability import karp_flatt

    by_n: dict[float, dict[int, float]] = {}
    for n, p, t, *_ in points:
        by_n.setdefault(float(n), {})[int(p)] = float(t)
    fig, (ax_a, ax_f) = plt.subplots(1, 2, figsize=(11, 4.2))
    sk = pred.skeleton
    for n, row in sorted(by_n.items()):
        t1 = row.get(1)
        if t1 is None:
            continue
        pes = sorted(row)
        # W(n,p) from the skeleton with T(n) := T(n,1) (dc's tree form needs T(n/r^d),
        # which the grid does not have: T(n)/p is drawn instead)
        tree = sk.kind == "dc" and sk.branching
        abar = [row[p] - (t1 / p if tree else sk.work(lambda _x, t1=t1: t1, n, p)) for p in pes]
        ax_a.plot(pes, abar, "o-", ms=4, label=f"{macro}={n:g}")
        fs = [(p, karp_flatt(row[p], t1, p)) for p in pes if p > 1]
        if fs:
            ax_f.plot([p for p, _ in fs], [f for _, f in fs], "o-", ms=4, label=f"{macro}={n:g}")
    if pred.abar.has_value:
        ax_a.plot(
            [pred.p],
            [pred.abar.value],
            "r*",
            ms=13,
            label=f"estimate {macro}={pred.n_text}, p={pred.p}",
        )
    if pred.serial_fraction is not None:
        ax_f.plot(
            [pred.p],
            [pred.serial_fraction],
            "r*",
            ms=13,
            label=f"estimate {macro}={pred.n_text}, p={pred.p}",
        )
    ax_a.set_xlabel("threads p")
    ax_a.set_ylabel("Abar(n,p) = T(n,p) - W(n,p)  (s, loop time)")
    ax_a.set_title(
        f"parallel penalty ({sk.kind}: W = {sk.formula().split('+')[0].strip()})", fontsize=10
    )
    ax_f.set_xlabel("threads p")
    ax_f.set_ylabel("serial fraction f(n,p) (Karp-Flatt, dimensionless)")
    ax_f.set_title("Karp-Flatt: (T(n,p)/T(n) - 1/p) / (1 - 1/p)", fontsize=10)
    for ax in (ax_a, ax_f):
        ax.grid(alpha=0.3)
        if ax.get_legend_handles_labels()[0]:  # a panel with no line has no legend
            ax.legend(fontsize=7)
    fig.suptitle("measured grid, T(n) := T(n,1)", fontsize=11)
    fig.tight_layout()
    path = Path(path)
    save_figure(fig, str(path), dpi=110)
    return path

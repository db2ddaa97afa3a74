"""Figures like the paper's Figures 2-6: measured points, every method's curve, the estimate."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from autotune.cli.render import save_figure
from autotune.errors import UserError
from autotune.skeletons.estimators import PAPER_NAMES, make_estimator
from autotune.skeletons.predictor import Prediction
from autotune.skeletons.selection import Choice

_COLOURS = {"spline": "tab:blue", "loess": "tab:orange", "lmpoly": "tab:green", "lm": "tab:gray"}


def _panel(ax, choice: Choice) -> None:
    x = np.asarray(choice.x, dtype=float)
    y = np.asarray(choice.y, dtype=float)
    lo, hi = min(x.min(), choice.at), max(x.max(), choice.at)
    grid = np.linspace(lo, hi, 200)
    for r in choice.results:
        if r.method not in _COLOURS or r.estimate is None:
            continue
        try:
            curve = make_estimator(r.method, degree=choice.degree).fit(x, y).predict(grid)
        except UserError:
            continue
        style = "-" if r.method == choice.chosen or r.method in choice.components else "--"
        ax.plot(grid, curve, style, color=_COLOURS[r.method], lw=1.2,
                label=PAPER_NAMES[r.method])
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

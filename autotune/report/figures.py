"""The report's figures: predicted against measured, speedup by threads and schedule.

Each figure is drawn with matplotlib (Agg) and returned as a PNG data URI, so
the HTML page is one file with its images inside. Axes say what and in which
unit; the title says which loop and which time (the loop's wall time, median
of its runs).
"""

from __future__ import annotations

import base64
import io

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib import ticker

SCHEDULE_COLOURS = {"static": "#1f77b4", "dynamic": "#d62728", "guided": "#2ca02c"}


def _data_uri(fig) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")
    plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode()


def measured_variants(doc: dict) -> list[dict]:
    """The variants of a loop outcome that were measured and verified."""
    return [v for v in doc.get("variants", []) if v.get("status") == "ok" and v.get("measured_s")]


def predicted_vs_measured(doc: dict, title: str) -> str | None:
    """Scatter of every measured variant (log-log) with the diagonal y = x."""
    points = [v for v in measured_variants(doc) if v.get("predicted_s")]
    if not points:
        return None
    fig, ax = plt.subplots(figsize=(4.6, 3.8))
    for kind, colour in SCHEDULE_COLOURS.items():
        sel = [v for v in points if (v.get("schedule") or "static") == kind]
        if sel:
            ax.scatter(
                [v["predicted_s"] * 1e3 for v in sel],
                [v["measured_s"] * 1e3 for v in sel],
                s=22,
                color=colour,
                label=kind,
            )
    xs = [v["predicted_s"] * 1e3 for v in points] + [v["measured_s"] * 1e3 for v in points]
    base, base_pred = doc.get("baseline"), doc.get("baseline_predicted_s")
    if base and base_pred:
        ax.scatter(
            [base_pred * 1e3], [base * 1e3], marker="x", s=40, color="black", label="original"
        )
        xs += [base_pred * 1e3, base * 1e3]
    lo, hi = min(xs) / 1.3, max(xs) * 1.3
    ax.plot(
        [lo, hi], [lo, hi], color="grey", linestyle="--", linewidth=1, label="predicted = measured"
    )
    ax.set_xscale("log")
    ax.set_yscale("log")
    for axis in (ax.xaxis, ax.yaxis):
        axis.set_major_locator(ticker.LogLocator(subs=(1.0, 2.0, 5.0)))
        axis.set_major_formatter(ticker.FuncFormatter(lambda v, _: f"{v:g}"))
        axis.set_minor_formatter(ticker.NullFormatter())
    ax.set_xlabel("predicted loop time (ms)")
    ax.set_ylabel("measured loop time, median (ms)")
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=7)
    return _data_uri(fig)


def speedup_by_threads(doc: dict, title: str) -> str | None:
    """Measured speedup over the original against thread count, one line per schedule."""
    base = doc.get("baseline")
    points = [v for v in measured_variants(doc) if v.get("threads")]
    if not base or not points:
        return None
    fig, ax = plt.subplots(figsize=(4.6, 3.8))
    for kind, colour in SCHEDULE_COLOURS.items():
        sel = sorted(
            (v["threads"], base / v["measured_s"])
            for v in points
            if (v.get("schedule") or "static") == kind
        )
        if sel:
            ax.plot(
                [t for t, _ in sel], [s for _, s in sel], "o", color=colour, label=kind, alpha=0.8
            )
    ax.axhline(1.0, color="grey", linestyle="--", linewidth=1, label="the original")
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: f"{v:g}"))
    ax.set_xlabel("threads")
    ax.set_ylabel("speedup over the original (loop time)")
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=7)
    return _data_uri(fig)

"""Sweep two programs over three sizes; compare the model's choice with the optimum.

Run it from anywhere: ``python3 examples/experiment/experiment.py``. It writes
experiment.db and model_vs_optimum.png next to this file and prints a table.
"""

import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

import autotune


def model_vs_optimum(doc: dict) -> tuple[float, float]:
    """(model's first choice, the original), each as time over the best time measured;
    where no variant was verified, the model's choice is the original it kept."""
    measured = [v for v in doc["variants"] if v["status"] == "ok"]  # best predicted first
    optimum = min([doc["baseline"]] + [v["measured_s"] for v in measured])
    first = measured[0]["measured_s"] if measured else doc["baseline"]
    return first / optimum, doc["baseline"] / optimum


if __name__ == "__main__":  # Dask starts worker processes that import this file
    here = Path(__file__).resolve().parent
    session = autotune.Session(db=here / "experiment.db")
    result = session.campaign(here / "plan.toml")  # resumes if interrupted
    for failure in result.failures:  # a program that did not build, a run that crashed
        print(f"failed: {failure}", file=sys.stderr)

    rows = []
    for outcome in session.outcomes("sizes"):
        if "failed" not in outcome.doc and outcome.doc.get("baseline"):
            model, original = model_vs_optimum(outcome.doc)
            rows.append((outcome.program, outcome.size, model, original))
    rows.sort(key=lambda r: (r[0], float(r[1].split("=")[-1])))  # by program, then size
    print(f"{'program':8} {'size':36} {'model/opt':>9} {'orig/opt':>9}")
    for program, size, model, original in rows:
        print(f"{program:8} {size:36} {model:9.2f} {original:9.2f}")

    fig, axes = plt.subplots(1, 2, figsize=(9, 3.5), sharey=True)
    for ax, program in zip(axes, ["stream", "gemm"], strict=True):
        mine = [r for r in rows if r[0] == program]
        sizes = [r[1].split()[-1].split("=")[-1] for r in mine]
        ax.plot(sizes, [r[2] for r in mine], "o-", label="model's first choice")
        ax.plot(sizes, [r[3] for r in mine], "s--", label="the original")
        ax.axhline(1.0, color="grey", linewidth=1)
        ax.set_yscale("log")  # one noisy size must not flatten the others
        ax.yaxis.set_major_formatter(plt.FormatStrFormatter("%g"))
        ax.yaxis.set_minor_formatter(plt.FormatStrFormatter("%g"))
        ax.set_title(program)
        ax.set_xlabel("size (-D value)")
    axes[0].set_ylabel("loop time / best measured time")
    axes[0].legend()
    fig.tight_layout()
    fig.savefig(here / "model_vs_optimum.png", dpi=100)
    print(f"plot written to {here / 'model_vs_optimum.png'}")
    if result.failures:  # run it again to retry them (the rest is stored)
        raise SystemExit(1)

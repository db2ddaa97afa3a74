"""Whole-program prediction on three kernels: predicted vs measured per node and in total.

    python bench/structure_programs.py [--quick] [--repetitions R]

For a time-step stencil (iteration over a parMap loop), a sections program
(binary composition) and a task-recursive merge sort (divide and conquer),
``autotune structure`` measures every node over a grid of sizes on 1 and 2
threads, predicts each node at a larger size on 2 threads with its skeleton,
then runs the target and reports the error. Sections also get the
composition check: E[max] from the sections' four moments vs the measured
construct time. Timings are noisy on a shared 2-core machine: read the
errors with the spread printed beside them.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from autotune.cli.main import main  # noqa: E402
from autotune.render import table  # noqa: E402

CASES = {
    "stencil2d": (["-D", "TSTEPS=50"], "N", [800, 1000, 1200, 1400, 1600], 2000),
    "sections": (
        ["-D", "NA=40000", "-D", "REPS=24"],
        "NB",
        [400000, 600000, 800000, 1000000, 1200000],
        2000000,
    ),
    "mergesort_task": ([], "N", [400000, 600000, 800000, 1000000, 1200000], 2000000),
}
QUICK = {
    "stencil2d": (["-D", "TSTEPS=10"], "N", [600, 800, 1000, 1200], 1600),
    "sections": (
        ["-D", "NA=20000", "-D", "REPS=12"],
        "NB",
        [200000, 300000, 400000, 500000],
        800000,
    ),
    "mergesort_task": ([], "N", [200000, 300000, 400000, 500000], 800000),
}


def walk(node: dict, depth: int = 0):
    yield node, depth
    for child in node["children"]:
        yield from walk(child, depth + 1)


def pct(x: float | None) -> str:
    return "-" if x is None else f"{x:+.1%}"


def run_case(
    name: str,
    extra: list[str],
    macro: str,
    sizes: list[int],
    target: int,
    p: int,
    reps: int,
    statistic: str,
) -> dict:
    argv = [
        "structure",
        str(ROOT / "kernels" / f"{name}.c"),
        *extra,
        "--sizes",
        f"{macro}={','.join(map(str, sizes))}",
        "--threads",
        f"1,{p}",
        "--predict",
        f"{macro}={target},p={p}",
        "--repetitions",
        str(reps),
        "--statistic",
        statistic,
        "--json",
        "--quiet",
    ]
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        rc = main(argv)
    if rc != 0:
        raise SystemExit(f"{name}: autotune structure failed (exit {rc})")
    return json.loads(buf.getvalue())


def main_bench() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller grids (about a minute)")
    ap.add_argument("--repetitions", type=int, default=7)
    ap.add_argument("--only", choices=sorted(CASES), action="append")
    ap.add_argument(
        "--statistic",
        choices=("median", "min"),
        default="median",
        help="per node and point over the runs (min: least disturbed run)",
    )
    args = ap.parse_args()
    p = min(2, os.cpu_count() or 1)
    cases = QUICK if args.quick else CASES
    totals = []
    for name in args.only or list(cases):
        extra, macro, sizes, target = cases[name]
        t0 = time.monotonic()
        out = run_case(name, extra, macro, sizes, target, p, args.repetitions, args.statistic)
        took = time.monotonic() - t0
        print(
            f"\n== {name}.c  {' '.join(extra)}  grid {macro}={sizes} x p=1,{p}, "
            f"target {macro}={target}, p={p}  ({args.repetitions} runs/point, "
            f"{args.statistic}, {took:.0f} s; load average {os.getloadavg()[0]:.1f})"
        )
        rows = []
        for node, depth in walk(out["tree"]):
            pr = node.get("prediction")
            if not pr or node.get("duplicate_of"):
                continue
            rows.append(
                [
                    "  " * depth + f"{node['kind']} {node['label'][:38]}",
                    node["line"],
                    pr["predicted_s"],
                    pr["measured_s"],
                    pct(pr["relative_error"]),
                    pr["how"][:64],
                ]
            )
            if node["kind"] == "program":
                d = pr["details"]
                pred, meas = d.get("remainder_predicted_s"), d.get("remainder_measured_s")
                err = (pred - meas) / meas if pred is not None and meas else None
                rows.append(["  (sequential remainder)", "", pred, meas, pct(err), ""])
        print(table(["node", "line", "predicted s", "measured s", "error", "how"], rows))
        for node, _ in walk(out["tree"]):
            for c in (
                (node.get("prediction") or {}).get("details", {}).get("composition_checks", [])
            ):
                m = c["model"]
                print(
                    f"composition check at {macro}={c['n']:g}, p={c['p']} "
                    f"({'x'.join(map(str, c['samples']))} samples): E[max] exact {m['exact']:.4g}"
                    f" s, paper (max of quantiles) {m['lambda']:.4g} s, max of means "
                    f"{m['deterministic']:.4g} s; measured construct "
                    f"{c['measured_region_per_execution']:.4g} s per execution "
                    f"(error {pct(c['error_vs_region']['exact'])}), measured mean of the "
                    f"per-execution max {c['measured_mean_of_max']:.4g} s (error "
                    f"{pct((c['error_vs_mean_of_max'] or {}).get('exact'))})"
                )
        w = out["whole_program"]
        totals.append([name, w["predicted_s"], w["measured_s"], pct(w["relative_error"])])
    print("\n== whole program")
    print(table(["kernel", "predicted s", "measured s", "error"], totals))
    return 0


if __name__ == "__main__":
    raise SystemExit(main_bench())

"""Skeleton extrapolation on our kernels: larger size, more threads, and both at once.

For each kernel (one size macro each) it measures a grid here: four sizes (1/8, 1/4,
3/8 and 1/2 of the kernel's default) at p = 1, 2, 3, 4 (above 2 cores the extra
threads are oversubscribed on this VM; on a many-core machine pass --threads), then
predicts three held-back points with every method and with the automatic choice:

- larger size:  n = 2 x largest, p = 2, from the sizes at p = 1, 2 (Abar over n);
- more threads: n = largest, p = max, from p below max at every size (Abar over p);
- both:         n = 2 x largest, p = max, from p below max (Abar over n, then p);

and measures those points to print the relative errors. ``--runs 3`` repeats the
whole measurement (fresh runs each time) and reports the median error per cell.

    python bench/scale_extrapolation.py [--runs 3] [--threads 1,2,3,4] [--kernels a,b]
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path

from autotune.frontend.options import SourceOptions
from autotune.measure.machine import detect_machine
from autotune.measure.store import Store
from autotune.skeletons.estimators import ALL_METHODS
from autotune.skeletons.predictor import predict_point
from autotune.tuning.scaling import ScaleGrid

ROOT = Path(__file__).resolve().parents[1]
# kernel -> (size macro, its default): the sizes sweep it, other macros stay default
KERNELS = {
    "triad.c": ("N", 2000000),
    "dot.c": ("N", 4000000),
    "compute.c": ("N", 60000),
    "matmul.c": ("NI", 600),
    "stencil2d.c": ("N", 1000),
    "triangular.c": ("N", 15000),
    "mandelbrot.c": ("HEIGHT", 480),
    "histogram.c": ("N", 16000000),
}
METHODS = ("auto", *ALL_METHODS, "mean")
EPSILON = 0.10  # what `autotune scale` uses by default


def held_back(points, largest: int, pmax: int) -> dict[str, tuple[list, tuple[int, int]]]:
    """Case -> (rows the prediction may use, the target (n, p))."""
    return {
        "larger size": ([r for r in points if r[1] <= 2], (2 * largest, 2)),
        "more threads": ([r for r in points if r[1] < pmax], (largest, pmax)),
        "both": ([r for r in points if r[1] < pmax], (2 * largest, pmax)),
    }


def one_run(
    kernel: str,
    macro: str,
    default: int,
    threads: list[int],
    store,
    machine,
    fresh: bool,
    reps: int,
) -> dict:
    sizes = sorted({default // 8, default // 4, 3 * default // 8, default // 2})
    grid = ScaleGrid(
        str(ROOT / "kernels" / kernel),
        macro,
        SourceOptions(),
        store,
        machine,
        repetitions=reps,
        fresh=fresh,
    )
    points: dict[str, list] = {}
    for size in sizes:
        for loop, pts in grid.measure(size, threads).items():
            points.setdefault(loop, []).extend(pts)
    pmax = threads[-1]
    targets = {}
    for size, ps in ((2 * sizes[-1], [2, pmax]), (sizes[-1], [pmax])):
        for loop, pts in grid.measure(size, sorted(set(ps))).items():
            for n, p, t, _ in pts:
                targets[(loop, n, p)] = t
    out = {}
    for loop, pts in points.items():
        for case, (rows, (n, p)) in held_back(pts, sizes[-1], pmax).items():
            truth = targets.get((loop, n, p))
            if truth is None:
                continue
            errs = {}
            for m in METHODS:
                try:
                    pred = predict_point(
                        rows,
                        "parmap",
                        n,
                        p,
                        m,
                        best_effort=True,
                        methods=ALL_METHODS,
                        holdout=2,
                        epsilon=EPSILON,
                    )
                except Exception as exc:  # a bench records every failure
                    errs[m] = f"error: {exc}"
                    continue
                errs[m] = None if pred.time is None else (pred.time - truth) / truth
                if m == "auto":
                    errs["auto unchecked"] = pred.unchecked
            out[f"{loop} {case}"] = errs
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--repetitions", type=int, default=3)
    ap.add_argument("--threads", default="1,2,3,4")
    ap.add_argument("--kernels", default=",".join(KERNELS))
    ap.add_argument("--db", default=None)
    ap.add_argument("--json", metavar="FILE")
    args = ap.parse_args()
    threads = sorted({int(t) for t in args.threads.split(",")})
    machine = detect_machine()
    runs: list[dict] = []
    with Store(args.db) as store:
        for i in range(args.runs):
            merged = {}
            for kernel in args.kernels.split(","):
                macro, default = KERNELS[kernel]
                print(f"run {i + 1}: {kernel} ({macro})", flush=True)
                merged.update(
                    one_run(
                        kernel,
                        macro,
                        default,
                        threads,
                        store,
                        machine,
                        fresh=i > 0,
                        reps=args.repetitions,
                    )
                )
            runs.append(merged)
    print(
        f"\nrelative error of T(n,p), median over {args.runs} run(s); "
        f"machine: {machine.cpu_model}, {machine.cores} cores"
    )
    header = f"{'loop / held-back point':52s}" + "".join(f"{m:>10s}" for m in METHODS)
    print(header)
    summary = {}
    for key in runs[0]:
        cells = []
        for m in METHODS:
            vals = [r[key][m] for r in runs if isinstance(r.get(key, {}).get(m), float)]
            med = statistics.median(vals) if vals else None
            summary.setdefault(key, {})[m] = med
            cells.append(f"{'-':>10s}" if med is None else f"{med:>+10.1%}")
        flag = (
            " (auto unchecked)" if any(r.get(key, {}).get("auto unchecked") for r in runs) else ""
        )
        print(f"{key[-52:]:52s}" + "".join(cells) + flag)
    per_loop = dict(summary)
    for case in ("larger size", "more threads", "both"):
        for m in METHODS:
            vals = [abs(v[m]) for k, v in per_loop.items() if k.endswith(case) and v[m] is not None]
            if vals:
                summary.setdefault(f"median |error|: {case}", {})[m] = statistics.median(vals)
        row = summary.get(f"median |error|: {case}", {})
        print(
            f"{'median |error| over loops: ' + case:52s}"
            + "".join(f"{row[m]:>10.1%}" if m in row else f"{'-':>10s}" for m in METHODS)
        )
    if args.json:
        Path(args.json).write_text(
            json.dumps({"runs": runs, "median": summary}, indent=2, default=str)
        )
        print(f"written: {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

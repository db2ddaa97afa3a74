"""Ranking quality of the power-law models, leave one kernel out.

For every kernel in kernels/: measure its loops' whole default variant space
(exhaustive sweep; runs already in the database are reused), fit the faithful
and the extended model on the *other* kernels, rank the held-out kernel's
variants, and compare with random choice at the same budget (K = 5).
Prints per loop Kendall tau, mean absolute relative error, regret@1, regret@5,
whether the true best was pruned, and the geometric means.

    python bench/ranking_quality.py [--repetitions 3] [--db PATH] [--kernels DIR]
"""

from __future__ import annotations

import argparse
import random
import statistics
import zlib
from pathlib import Path

import numpy as np

from autotune.frontend import analyze_file
from autotune.measure.build import BuildOptions
from autotune.measure.machine import detect_machine
from autotune.measure.store import Store
from autotune.measure.sweep import Sweep, SweepOptions
from autotune.models.quality import geomean_regret
from autotune.tuning import calibrate as cal
from autotune.variants.space import BASELINE, default_space

ROOT = Path(__file__).resolve().parents[1]
K = 5


def random_regret(measured: list[float], k: int, trials: int = 2000, seed: int = 0) -> float:
    """Expected regret@k of picking k variants at random (Monte Carlo)."""
    rng = random.Random(seed)
    best = min(measured)
    vals = [min(rng.sample(measured, min(k, len(measured)))) / best - 1 for _ in range(trials)]
    return statistics.fmean(vals)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repetitions", type=int, default=3)
    ap.add_argument("--db", default=None)
    ap.add_argument("--kernels", default=str(ROOT / "kernels"))
    args = ap.parse_args()
    machine = detect_machine()
    samples: list[cal.Sample] = []
    with Store(args.db) as store:
        for f in cal.kernel_files(args.kernels):
            unit = analyze_file(str(f), threads=machine.cores)
            for r in unit.loops:
                if not r.tunable:
                    continue
                sweep = Sweep(f, BuildOptions(), SweepOptions(repetitions=args.repetitions),
                              store, machine=machine)
                res = sweep.measure_loop(r, default_space(r, machine.cores))
                print(f"measured {r.id}: {len(res.variants)} variants "
                      f"({res.runs_measured} new runs, {res.runs_resumed} reused)", flush=True)
                for vr in [res.baseline, *res.variants]:
                    if vr is not None and vr.ok and vr.measured_s:
                        samples.append(cal.Sample(f.name, r, vr.variant or BASELINE,
                                                  vr.measured_s, None))
    result = cal.CalibrationResult()
    cal.leave_one_kernel_out(samples, machine, result, k=K)
    print(f"\n{'loop':34s} {'model':9s} {'tau':>6s} {'MARE':>7s} {'reg@1':>7s} {'reg@5':>7s} "
          f"{'pruned':>6s}")
    for h in result.held_out:
        def pct(x: float | None) -> str:
            return "-" if x is None else f"{x:.1%}"
        tau = "-" if h.tau is None else f"{h.tau:.2f}"
        print(f"{h.kernel:34s} {h.model:9s} {tau:>6s} {pct(h.mare):>7s} {pct(h.regret1):>7s} "
              f"{pct(h.regret5):>7s} {str(h.best_pruned):>6s}")
    by_loop: dict[str, list[float]] = {}
    for s in samples:
        by_loop.setdefault(s.record.id, []).append(s.wall_s)
    rnd = [random_regret(v, K, seed=zlib.crc32(k.encode())) for k, v in by_loop.items()]
    print("\nsummary (goals: regret@5 <= 2% geomean, best in top 5 for >= 80% of loops, "
          "tau >= 0.6, MARE <= 10%)")
    for name in cal.MODEL_NAMES:
        hs = [h for h in result.held_out if h.model == name]
        if not hs:
            continue
        taus = [h.tau for h in hs if h.tau is not None]
        mares = [h.mare for h in hs if h.mare is not None]
        in_top = [not h.best_pruned for h in hs if h.best_pruned is not None]
        print(f"{name:9s} geomean regret@1 {geomean_regret([h.regret1 for h in hs]):.1%}  "
              f"regret@5 {geomean_regret([h.regret5 for h in hs]):.1%}  "
              f"best in top {K}: {np.mean(in_top):.0%}  mean tau {np.mean(taus):.2f}  "
              f"mean MARE {np.mean(mares):.1%}")
    print(f"random    geomean regret@5 {geomean_regret(rnd):.1%} (expected, same budget)")
    print("seed 004 published mean abs relative error: 6.12%..52.64%, mean 20.2%")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

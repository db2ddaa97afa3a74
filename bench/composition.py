"""Reproduce the synthetic study of seed 002 (Gautama and van Gemund, section 4).

Y = max(X1, X2) for independent X1, X2:
  uniform      X1 ~ U[0, 1/m], X2 ~ U[1, 3/2], m swept;
  exponential  E[X1] = 1, E[X2] = 1/theta, theta swept from 0.1 to 10;
  normal (mu)  X1 ~ N(1, 1), X2 ~ N(mu, 1);
  normal (sig) X1 ~ N(1, 1), X2 ~ N(1, sigma^2).
Each method's E[Y] and E[Y^2] is compared with a Monte Carlo estimate (fixed
seed). Relative error = |predicted - measured| / measured: the published
maxima (33% for the exponential at equal means is exactly 1 - 1/1.5) are
relative to the measured value, although the paper's eq. 6 divides by the
prediction; ``--eq6`` switches to that convention.

Run: python bench/composition.py [--samples 2000000] [--seed 2002] [--eq6]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from scipy import stats

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autotune.render import table
from autotune.structmodels.composition import (
    METHODS,
    FrozenDistribution,
    compose,
    exact_max_moment,
)
from autotune.structmodels.moments import Moments

# Published maxima of the E[Y] error of the lambda method (seed 002, section 4).
PUBLISHED = {
    "uniform": "15% (any k), E[Y] < 5%",
    "exponential": "33% at theta = 1",
    "normal-mu": "35% (normal)",
    "normal-sigma": "35% (normal); deterministic 70% at sigma = 5",
}


def moments_of(dist) -> Moments:
    m, v, s, k = (float(x) for x in dist.stats(moments="mvsk"))
    return Moments(m, v, s, k + 3.0)


def sweeps() -> dict[str, list[tuple[str, object, object]]]:
    u2 = stats.uniform(1.0, 0.5)
    n1 = stats.norm(1.0, 1.0)
    return {
        "uniform": [
            (f"m={m:g}", stats.uniform(0.0, 1.0 / m), u2)
            for m in (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 2 / 3, 0.8, 0.9, 1.0, 1.5)
        ],
        "exponential": [
            (f"theta={t:g}", stats.expon(scale=1.0), stats.expon(scale=1.0 / t))
            for t in (0.1, 0.2, 0.5, 0.8, 1.0, 1.25, 2.0, 5.0, 10.0)
        ],
        "normal-mu": [
            (f"mu={mu:g}", n1, stats.norm(mu, 1.0)) for mu in (1.0, 1.25, 1.5, 2.0, 3.0, 4.0, 5.0)
        ],
        "normal-sigma": [
            (f"sigma={s:g}", n1, stats.norm(1.0, s)) for s in (1.0, 1.5, 2.0, 3.0, 4.0, 5.0)
        ],
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--samples", type=int, default=2_000_000)
    ap.add_argument("--seed", type=int, default=2002)
    ap.add_argument("--eq6", action="store_true", help="divide by the prediction (eq. 6)")
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    start = time.monotonic()
    summary = []
    for name, cases in sweeps().items():
        rows = []
        worst = {m: (0.0, "") for m in METHODS}
        worst_any_k = 0.0
        for label, d1, d2 in cases:
            y = np.maximum(
                d1.rvs(args.samples, random_state=rng), d2.rvs(args.samples, random_state=rng)
            )
            mc = [float(np.mean(y**k)) for k in (1, 2, 3, 4)]
            ref = [
                exact_max_moment(FrozenDistribution(d1), FrozenDistribution(d2), k) for k in (1, 2)
            ]
            comp = compose(moments_of(d1), moments_of(d2), (1, 2, 3, 4))
            row: list[object] = [label, mc[0], round(100 * (mc[0] - ref[0]) / ref[0], 3)]
            any_k = max(100 * abs(comp.values["lambda"][k] - mc[k]) / mc[k] for k in range(4))
            worst_any_k = max(worst_any_k, any_k)
            for k in (0, 1):
                for m in METHODS:
                    p = comp.values[m][k]
                    err = 100 * abs(p - mc[k]) / (abs(p) if args.eq6 else mc[k])
                    row.append(round(err, 1))
                    if k == 0 and err > worst[m][0]:
                        worst[m] = (err, label)
            fits = "".join("*" if not g.exact_ else "" for g in comp.fits)
            rows.append(row + [fits])
        heads = ["case", "MC E[Y]", "MC-exact%"]
        heads += [f"e1 {m[:5]}" for m in METHODS] + [f"e2 {m[:5]}" for m in METHODS] + ["fit"]
        print(f"\n== {name}: relative error % of E[Y] (e1) and E[Y^2] (e2)")
        print(table(heads, rows))
        summary.append(
            [
                name,
                PUBLISHED[name],
                f"{worst['lambda'][0]:.1f}% at {worst['lambda'][1]}",
                f"{worst_any_k:.1f}%",
                f"{worst['exact'][0]:.1f}% at {worst['exact'][1]}",
                f"{worst['heuristic'][0]:.1f}%",
                f"{worst['deterministic'][0]:.1f}%",
            ]
        )
    conv = "|pred - MC| / pred (eq. 6)" if args.eq6 else "|pred - MC| / MC"
    print(f"\n== maxima of the E[Y] error over each sweep ({conv})")
    print(
        table(
            [
                "sweep",
                "published (lambda)",
                "ours: lambda (eq. 5)",
                "lambda, any k<=4",
                "ours: exact (order stats)",
                "heuristic (eq. 4)",
                "deterministic",
            ],
            summary,
        )
    )
    print(
        f"\nMonte Carlo: {args.samples} pairs per case, seed {args.seed}; MC-exact% is the MC "
        "error against the exact integral on the true distributions; fit '*' = lambda fit "
        f"not exact. {time.monotonic() - start:.1f} s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Does a cross-program model of what the power law misses help on unseen programs?

Leave one program out over a recorded sweep (the layout of ../shared/recorded-16core):
for each program held out, the extended model is fitted on the others, and a model of
its log residual is fitted on those others too, nested (each training program's
residuals come from an extended model fitted without it, so the residual model learns
what the law misses on programs it has not seen). The residual is taken within a loop
(minus the loop's mean), from the loop's features (their logs, raw and minus the loop's
mean: imbalance, dispatches, footprint per thread against the caches, bandwidth share,
threads): what would change the order of a loop's variants. Two residual models:
scikit-learn's gradient boosting (depth 2, 150 trees) and ridge regression. The held-out
program's loops are then ranked by the law alone and by the law times exp(residual), top
K and the sequential search (default prior), with the columns of ranking_quality.py.

    python bench/residual_model.py --recorded ../shared/recorded-16core [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np
import recorded
import replay
from ranking_quality import _fit
from sklearn.ensemble import GradientBoostingRegressor
from sklearn.linear_model import Ridge

from autotune.models.features import feature_matrix
from autotune.tuning import calibrate as cal
from autotune.variants.space import BASELINE


def _inputs(X: np.ndarray) -> np.ndarray:
    """Log features, raw and relative to the loop (rows: one loop's variants)."""
    z = np.log(np.maximum(np.asarray(X, dtype=float), 1e-12))
    return np.hstack([z - z.mean(axis=0), z])


class Corrected:
    """The law's prediction times exp(the residual model's)."""

    def __init__(self, law, residual) -> None:
        self.law, self.residual = law, residual
        self.feature_names_ = law.feature_names_

    def predict(self, X) -> np.ndarray:
        law = np.asarray(self.law.predict(X), dtype=float)
        return law * np.exp(self.residual.predict(_inputs(X)))


def _samples(loops: list) -> list:
    return [
        cal.Sample(lp.program, lp.record, v, t, None)
        for lp in loops
        for v, t in [(BASELINE, lp.baseline_s), *lp.times.items()]
    ]


def _residual_rows(machine, by_program: dict, programs: list[str]):
    """Each program's within-loop log residuals under a law fitted without it."""
    Z, r = [], []
    for p in programs:
        law = _fit(
            _samples([lp for q in programs if q != p for lp in by_program[q]]), machine, "extended"
        )
        for lp in by_program[p]:
            vs = [BASELINE, *lp.times]
            X, _ = feature_matrix([(lp.record, v) for v in vs], machine, list(law.feature_names_))
            y = np.array([lp.baseline_s, *(lp.times[v] for v in vs[1:])])
            res = np.log(y) - np.log(np.asarray(law.predict(X), dtype=float))
            Z.append(_inputs(X))
            r.append(res - res.mean())
    return np.vstack(Z), np.concatenate(r)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--recorded", required=True, metavar="DIR")
    ap.add_argument("--json", metavar="OUT", help="write every loop's scores")
    args = ap.parse_args()
    machine, loops = recorded.load(Path(args.recorded))
    by_program: dict[str, list] = {}
    for lp in loops:
        by_program.setdefault(lp.program, []).append(lp)
    programs = sorted(by_program)
    scores: list[replay.LoopScore] = []
    for held in programs:
        train = [p for p in programs if p != held]
        law = _fit(_samples([lp for p in train for lp in by_program[p]]), machine, "extended")
        Z, r = _residual_rows(machine, by_program, train)
        boosted = GradientBoostingRegressor(
            max_depth=2, n_estimators=150, learning_rate=0.05, subsample=0.8, random_state=0
        )
        models = {
            "extended": law,
            "extended+boosted residual": Corrected(law, boosted.fit(Z, r)),
            "extended+ridge residual": Corrected(law, Ridge(alpha=10.0).fit(Z, r)),
        }
        for lp in by_program[held]:
            loop = replay.ReplayLoop(lp.name, lp.record, lp.baseline_s, lp.times)
            for name, model in models.items():
                top, pred, base = replay.model_scores(loop, model, name, machine)
                scores += [
                    top,
                    replay.sequential_score(loop, pred, base, machine, name=f"sequential({name})"),
                ]
        print(f"left out {held}", flush=True)
    rows = replay.summarize(scores)
    replay.print_summary(rows, "leave one program out: the law, and the law with a residual model")
    if args.json:
        Path(args.json).write_text(
            json.dumps(
                {"summary": rows, "loops": [s.__dict__ for s in scores]}, indent=1, default=str
            )
        )
        print(f"written: {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

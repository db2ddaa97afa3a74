"""The shipped coefficients' wall-time models, fitted on sweeps recorded on a many-core machine.

    python bench/recorded_defaults.py --recorded ../shared/recorded-16core \
        --out autotune/data/default_coefficients_16core.json

Fits the faithful and the extended model on every recorded loop (the layout of
``bench/recorded.py``), and stores with each what leave one program out says about it:
the sequential search's prior (``SearchPrior.fit`` on each program's loops predicted by
a model fitted on the others) and, for the extended model, the rank mode's ship rule
(``ShipRule.fit`` on the same held-out first picks). The CPU-time models are copied from
the 2-core file (the sweeps record wall time only), and the document says so.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import ranking_quality as rq
import recorded
import replay

from autotune.models.defaults import DEFAULT_PATH, MANY_CORE_PATH, machine_label
from autotune.tuning import calibrate as cal
from autotune.tuning.search_prior import SearchPrior, twin_log_ratios
from autotune.tuning.ship_rule import ShipRule


def held_out(machine, loops: list, name: str) -> tuple[SearchPrior, ShipRule]:
    """The prior and the ship rule from each program predicted by a model fitted on the
    other programs."""
    samples, by_program = rq.program_loops(loops)
    pairs, picks = [], []
    for held, train, _ in cal.held_out_splits(samples):
        model = rq._fit(train, machine, name)
        for loop in by_program[held]:
            pairs.append(replay.log_pairs(loop, model, machine))
            pick = rq.first_pick_gains(loop, model, machine, name)
            if pick is not None:
                picks.append(pick)
    twins = [r for lp in loops for r in twin_log_ratios(lp.record, lp.times)]
    return SearchPrior.fit(pairs, twins), ShipRule.fit(picks)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--recorded", required=True, metavar="DIR")
    ap.add_argument("--out", default=str(MANY_CORE_PATH), metavar="FILE")
    args = ap.parse_args()
    machine, loops = recorded.load(Path(args.recorded))
    samples, _ = rq.program_loops(loops)
    doc = json.loads(Path(DEFAULT_PATH).read_text())
    cpu = [m for m in doc["models"] if m["target"] == "cpu"]
    cpu_from = doc.get("label", "an earlier calibration")
    wall = []
    for name in ("faithful", "extended"):
        prior, rule = held_out(machine, loops, name)
        extra = {"search_prior": prior.to_dict()}
        if name == "extended":
            extra["ship_rule"] = rule.to_dict()
        wall.append(rq._fit(samples, machine, name).to_dict(**extra))
        print(f"{name}: search prior {prior.to_dict()}, ship rule {rule.to_dict()}")
    programs = len({lp.program for lp in loops})
    label = machine_label(machine, dt.date.today())
    doc.update(
        {
            "label": f"{label}: wall time from {len(loops)} recorded loops of {programs} "
            f"PolyBench programs; CPU time from the earlier file ({cpu_from})",
            "created": dt.date.today().isoformat(),
            "machine": machine.to_dict(),
            "models": wall + cpu,
            "preference": {
                "model": "extended",
                "reason": "ranked held-out programs better (leave one program out on the "
                "recorded 16-core sweeps: bench/results/ranking_quality.md)",
            },
        }
    )
    Path(args.out).write_text(json.dumps(doc, indent=1) + "\n")
    print(f"written: {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

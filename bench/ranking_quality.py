"""Ranking quality of the power-law models and of the sequential search.

Two sources of exhaustively measured loops:

- ``--kernels DIR`` (default: the project's kernels/): every loop's whole
  default variant space is measured here (runs already in the database are
  reused); the models are then fitted leave one kernel out, so each kernel is
  ranked by coefficients that never saw it;
- ``--recorded DIR``: sweeps recorded on another machine (the layout of
  ``../shared/recorded-16core``: measurements.csv, machine.txt, sources).
  Nothing is measured; the loops are analysed for the recorded machine and
  ranked with the shipped coefficients (or ``--coefficients FILE``).

For the faithful model, the extended model, the sequential search with each
as its prior, and random choice at the same budget (K = 5), it prints
regret@1, regret@5 (geometric means over loops), how often the fastest was
measured, Kendall tau, MARE before and after anchoring on the measured
original, and the programs measured per loop. See bench/replay.py for the
definitions.

    python bench/ranking_quality.py [--recorded DIR] [--repetitions 3] [--db PATH]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import program_bootstrap
import recorded
import replay

from autotune.analysis import analyze_file
from autotune.measure.build import BuildOptions
from autotune.measure.machine import detect_machine
from autotune.measure.microbench import run_microbenchmarks
from autotune.measure.store import Store
from autotune.measure.sweep import Sweep, SweepOptions
from autotune.models.defaults import load_model
from autotune.models.powerlaw import make_model
from autotune.tuning import calibrate as cal
from autotune.tuning.search_prior import SearchPrior, twin_log_ratios
from autotune.tuning.ship_rule import ShipRule
from autotune.variants.space import BASELINE, default_space, default_thread_counts

ROOT = Path(__file__).resolve().parents[1]
GOALS = (
    "goals: regret@1 <= 4%, regret@5 <= 1%, best found >= 80%, tau >= 0.75, MARE anchored <= 15%"
)


def measured_kernels(directory: str, repetitions: int, db: str | None):
    """(machine, samples, loops): every kernel loop's default space measured here."""
    machine = detect_machine()
    samples: list[cal.Sample] = []
    loops: list[tuple[str, replay.ReplayLoop]] = []
    with Store(db) as store:
        for f in cal.kernel_files(directory):
            unit = analyze_file(str(f), threads=machine.cores)
            for r in unit.loops:
                if not r.tunable:
                    continue
                sweep = Sweep(
                    f, BuildOptions(), SweepOptions(repetitions=repetitions), store, machine=machine
                )
                res = sweep.measure_loop(r, default_space(r, machine.cores))
                print(
                    f"measured {r.id}: {len(res.variants)} variants "
                    f"({res.runs_measured} new runs, {res.runs_resumed} reused)",
                    flush=True,
                )
                if res.baseline is None or not res.baseline.ok:
                    continue
                times = {
                    vr.variant: vr.measured_s for vr in res.variants if vr.ok and vr.measured_s
                }
                loops.append((f.name, replay.ReplayLoop(r.id, r, res.baseline.measured_s, times)))
                for v, t in [(res.baseline.variant, res.baseline.measured_s), *times.items()]:
                    samples.append(cal.Sample(f.name, r, v, t, None))
    return machine, samples, loops


def kernels_mode(args: argparse.Namespace) -> list[replay.LoopScore]:
    machine, samples, loops = measured_kernels(args.kernels, args.repetitions, args.db)
    profile = None
    if args.microbench:
        profile = run_microbenchmarks(machine, default_thread_counts(machine.cores))
        print("runtime profile:", profile.to_dict())
    by_kernel: dict[str, list] = {}
    for k, loop in loops:
        by_kernel.setdefault(k, []).append(loop)
    scores: list[replay.LoopScore] = []
    fixed = None  # --coefficients: every kernel ranked by those (fitted elsewhere)
    if args.coefficients:
        fixed = {n: load_model(n, args.coefficients) for n in cal.MODEL_NAMES}
    for kernel, train, _ in cal.held_out_splits(samples):
        models = fixed or {name: _fit(train, machine, name, profile) for name in cal.MODEL_NAMES}
        priors = {
            name: SearchPrior.from_dict(fixed[name].metadata_.get("search_prior"))
            if fixed
            else _nested_prior(train, by_kernel, machine, name, profile)
            for name in cal.MODEL_NAMES
        }
        rule = None if fixed else _nested_rule(train, by_kernel, machine, profile)
        for loop in by_kernel.get(kernel, []):
            for s in replay.replay_loop(loop, models, machine, profile=profile, priors=priors):
                if rule is not None:
                    s.notes["ship_rule"] = rule.to_dict()  # fitted without this kernel
                scores.append(s)
    return scores


def recorded_mode(args: argparse.Namespace) -> list[replay.LoopScore]:
    machine, loops = recorded.load(Path(args.recorded))
    if args.lopo:
        return lopo_scores(machine, loops)
    models = {n: load_model(n, args.coefficients) for n in cal.MODEL_NAMES}
    scores: list[replay.LoopScore] = []
    for lp in loops:
        loop = replay.ReplayLoop(lp.name, lp.record, lp.baseline_s, lp.times)
        scores += replay.replay_loop(loop, models, machine)
    return scores


def program_loops(loops: list) -> tuple[list, dict[str, list]]:
    """(training samples, replay loops by program) of recorded loops."""
    samples = [
        cal.Sample(lp.program, lp.record, v, t, None)
        for lp in loops
        for v, t in [(BASELINE, lp.baseline_s), *lp.times.items()]
    ]
    by_program: dict[str, list] = {}
    for lp in loops:
        loop = replay.ReplayLoop(lp.name, lp.record, lp.baseline_s, lp.times)
        by_program.setdefault(lp.program, []).append(loop)
    return samples, by_program


def first_pick_gains(loop, model, machine, name: str = "extended", profile=None):
    """(predicted, measured) gain of ``model``'s first pick over the original on one
    loop, runtime twins dropped as ``rank`` drops them; None with fewer than 2 variants."""
    keep, _ = replay.collapse(loop.record, list(loop.times), "libgomp")
    times = {v: loop.times[v] for v in keep}
    kept = replay.ReplayLoop(loop.name, loop.record, loop.baseline_s, times)
    if len(kept.times) < 2:
        return None
    score, _, _ = replay.model_scores(kept, model, name, machine, profile=profile)
    return tuple(score.notes["first_pick"])


def lopo_scores(machine, loops: list) -> list[replay.LoopScore]:
    """Leave one program out: each program's loops ranked by models fitted on the
    recorded sweeps of the other programs only (as a user meets the model: fitted on
    programs that are not theirs)."""
    samples, by_program = program_loops(loops)
    scores: list[replay.LoopScore] = []
    for held, train, _ in cal.held_out_splits(samples):
        fit_on = {s.kernel for s in train}
        models = {name: _fit(train, machine, name) for name in cal.MODEL_NAMES}
        priors = {name: _nested_prior(train, by_program, machine, name) for name in cal.MODEL_NAMES}
        rule = _nested_rule(train, by_program, machine)
        for loop in by_program[held]:
            for s in replay.replay_loop(loop, models, machine, priors=priors):
                s.notes["ship_rule"] = rule.to_dict()  # fitted without this program
                scores.append(s)
        print(
            f"left out {held}: fitted on {len(train)} runs of {len(fit_on)} programs; search "
            f"prior (extended) {priors['extended'].to_dict()}",
            flush=True,
        )
    return scores


def _fit(samples: list, machine, name: str, profile=None):
    X, y, _, groups = cal._xy(samples, machine, name, "wall", profile)
    return make_model(name, target="wall").fit(X, y, groups=groups)


def _nested_prior(
    train: list, by_program: dict[str, list], machine, name: str, profile=None
) -> SearchPrior:
    """The search's prior fitted as calibration fits it, on the training programs alone:
    each of them held out in turn from a model fitted on the others (the evaluated
    program is never seen, not even through the prior)."""
    pairs = []
    for inner, inner_train, _ in cal.held_out_splits(train):
        model = _fit(inner_train, machine, name, profile)
        pairs += [replay.log_pairs(lp, model, machine, profile) for lp in by_program[inner]]
    programs = sorted({s.kernel for s in train})
    loops = [lp for p in programs for lp in by_program.get(p, [])]
    return SearchPrior.fit(pairs, [r for lp in loops for r in twin_log_ratios(lp.record, lp.times)])


def _nested_rule(train: list, by_program: dict[str, list], machine, profile=None) -> ShipRule:
    """The rank mode's rule as calibration fits it, on the training programs alone (each
    held out in turn from an extended model fitted on the others)."""
    picks = []
    for inner, inner_train, _ in cal.held_out_splits(train):
        model = _fit(inner_train, machine, "extended", profile)
        for lp in by_program[inner]:
            pick = first_pick_gains(lp, model, machine, profile=profile)
            if pick is not None:
                picks.append(pick)
    return ShipRule.fit(picks)


def rank_mode(scores: list[replay.LoopScore], args: argparse.Namespace) -> list[dict]:
    """Rank mode's outcome before the ship rule (every predicted gain compiled) and with
    it: the rule fitted without the evaluated program (--lopo, the kernels), else the one
    stored with the coefficients (the shipped default, which the recorded sweeps gave)."""
    ext = [s for s in scores if s.method == "extended"]
    picks = replay.first_picks(ext)
    if all("ship_rule" in s.notes for s in ext):  # --lopo, and the kernels measured here
        rules = [ShipRule.from_dict(s.notes["ship_rule"]) for s in ext]
        label = "fitted without the loop's program (nested)"
    else:
        meta = getattr(load_model("extended", args.coefficients), "metadata_", {})
        rule = ShipRule.from_dict(meta.get("ship_rule"))
        rules = [rule] * len(picks)
        label = f"the coefficients' rule ({rule.min_gain:.2f}x)"
    return [
        replay.rank_mode_row("every predicted gain (before the rule)", picks, [None] * len(picks)),
        replay.rank_mode_row(label, picks, rules),
    ]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--recorded", metavar="DIR", help="replay sweeps recorded elsewhere")
    ap.add_argument(
        "--coefficients",
        metavar="FILE",
        help="coefficients file: with --recorded, instead of the shipped ones; with the "
        "kernels, instead of fitting them leave one kernel out",
    )
    ap.add_argument(
        "--lopo",
        action="store_true",
        help="with --recorded: fit the models leaving one program out, for each program, "
        "instead of using the shipped coefficients",
    )
    ap.add_argument("--repetitions", type=int, default=3)
    ap.add_argument("--db", default=None)
    ap.add_argument("--kernels", default=str(ROOT / "kernels"))
    ap.add_argument(
        "--microbench",
        action="store_true",
        help="kernels: measure the runtime "
        "micro-benchmarks here and fit and rank with them as model inputs",
    )
    ap.add_argument("--per-loop", action="store_true", help="also print every loop's scores")
    ap.add_argument(
        "--compare",
        metavar="FILE",
        help="an earlier run's --json on the same loops: print each figure's difference "
        "with a 95%% interval from resampling the programs (paired)",
    )
    ap.add_argument("--json", metavar="FILE", help="write the per-loop scores and summary")
    args = ap.parse_args()
    scores = recorded_mode(args) if args.recorded else kernels_mode(args)
    if args.per_loop:
        for s in scores:
            print(s)
    rows = replay.summarize(scores)
    fitted = f"coefficients {args.coefficients}" if args.coefficients else "leave one kernel out"
    where = args.recorded or f"{args.kernels} ({fitted}, measured here)"
    if args.recorded and args.lopo:
        where += " (leave one program out)"
    replay.print_summary(rows, f"ranking quality on {where}, budget K = {replay.K}")
    print(GOALS)
    methods = ["extended", "sequential(extended)"]
    goals = program_bootstrap.print_goals(scores, methods)
    compared = None
    if args.compare:
        old = json.loads(Path(args.compare).read_text())["loops"]
        compared = program_bootstrap.print_comparison(scores, old, methods, args.compare)
    shipping = rank_mode(scores, args)
    replay.print_rank_mode(shipping)
    floor = None
    if args.recorded:
        machine, loops = recorded.load(Path(args.recorded))
        floor = replay.noise_floor(
            [replay.ReplayLoop(lp.name, lp.record, lp.baseline_s, lp.times) for lp in loops],
            machine=machine,
        )
        replay.print_noise_floor(floor)
    if args.json:
        Path(args.json).write_text(
            json.dumps(
                {
                    "summary": rows,
                    "goals": goals,
                    "comparison": compared,
                    "rank_mode": shipping,
                    "noise_floor": None if floor is None else floor.__dict__,
                    "loops": [s.__dict__ for s in scores],
                },
                indent=2,
                default=str,
            )
        )
        print(f"written: {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

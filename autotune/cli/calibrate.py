"""``autotune calibrate``: fit the power-law models on this machine from our kernels."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from autotune.errors import UserError
from autotune.render import Progress, dump_json, table
from autotune.tuning import calibrate as cal


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--kernels",
        metavar="DIR",
        default=None,
        help="directory of calibration kernels (default: ./kernels, else the "
        "project's own kernels/)",
    )
    parser.add_argument(
        "--sample",
        type=int,
        default=10,
        metavar="N",
        help="variants measured per loop (a reproducible sample: one static variant "
        "per thread count, then one of each other schedule kind as room allows; a "
        "sample too small to identify a model says what never varied and adopts "
        "nothing; default 10, at least 4; 0 = the whole default space)",
    )
    parser.add_argument(
        "--repetitions",
        type=int,
        default=3,
        metavar="R",
        help="runs of each variant, interleaved; the median counts (default 3)",
    )
    parser.add_argument(
        "--run-timeout",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="stop any run of a kernel after this long (default 60)",
    )
    parser.add_argument(
        "--no-microbench",
        action="store_true",
        help="skip the runtime micro-benchmarks (fork/join, barrier, chunk dispatch, "
        "slow-core penalty of static, memory bandwidth by thread count); the model then "
        "uses nominal figures",
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help="adopt the new coefficients even if they rank held-out kernels "
        "worse than the coefficients in use",
    )
    what = parser.add_mutually_exclusive_group()
    what.add_argument(
        "--show",
        action="store_true",
        help="print the coefficients in use on this machine and where they came "
        "from; measure nothing",
    )
    what.add_argument(
        "--reset",
        action="store_true",
        help="forget this machine's calibration (back to the shipped defaults)",
    )
    parser.add_argument(
        "--time-budget",
        type=float,
        default=None,
        metavar="SECONDS",
        help="stop measuring kernels after SECONDS and fit on what was measured (a fit "
        "from too few kernels adopts nothing and says so; default: no limit)",
    )
    parser.add_argument(
        "--db",
        metavar="PATH",
        help="results database (default: $AUTOTUNE_DB, else ~/.cache/autotune/autotune.db)",
    )
    parser.add_argument(
        "--cc", default="gcc", help="the C compiler the kernels are built with (default gcc)"
    )
    parser.add_argument(
        "--save",
        metavar="FILE.json",
        help="also write the coefficients to FILE.json (the shipped-defaults format)",
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument("-q", "--quiet", action="store_true")


def run(args: argparse.Namespace) -> int:
    from autotune.api import Session
    from autotune.models.defaults import coefficients_document
    from autotune.tuning.calibrate_run import CalibrateOptions, run_calibration

    if args.reset and args.save:
        raise UserError("--save writes coefficients: give it with a calibration or --show")
    if args.show or args.reset:
        return show_or_reset(args)
    options = CalibrateOptions(
        kernels=args.kernels,
        sample=args.sample,
        repetitions=args.repetitions,
        run_timeout_s=args.run_timeout,
        microbench=not args.no_microbench,
        force=args.force,
        cc=args.cc,
        time_budget_s=args.time_budget,
    )
    options.validate()
    with (
        Session(db=args.db).store() as store,
        Progress(1, "calibrate", quiet=args.quiet or args.json) as bar,
    ):
        done = run_calibration(
            options,
            store,
            on_plan=lambda n: setattr(bar, "total", max(n, 1)),
            on_step=lambda note: bar.advance(1, note),
        )
        args.db_path = str(store.path)
    result, machine = done.result, done.machine
    if args.save and result.models:
        doc = coefficients_document(result.models.values(), machine)
        doc["preference"] = {"model": result.preferred, "reason": result.reason}
        Path(args.save).write_text(json.dumps(doc, indent=2) + "\n")
    report(result, machine, done.skipped, args)
    return 0


# Over 60 lines: the calibration report, one section after another (JSON or text).
def report(result, machine, skipped: list[str], args, out=None) -> None:
    out = out or sys.stdout
    if args.json:
        dump_json(
            {
                "machine": machine.to_dict(),
                "samples": len(result.samples),
                "fit": [
                    {
                        "model": n,
                        "target": t,
                        **q,
                        "coef": result.models[(n, t)].coefficients(),
                        "intercept": float(result.models[(n, t)].intercept_),
                    }
                    for (n, t), q in result.fit_quality.items()
                ],
                "held_out": [h.__dict__ for h in result.held_out],
                "search_prior": {n: p.to_dict() for n, p in result.search_priors.items()},
                "ship_rule": {n: r.to_dict() for n, r in result.ship_rules.items()},
                "preferred": result.preferred,
                "database": getattr(args, "db_path", None),
                "reason": result.reason,
                "refused": result.refused,
                "stragglers_dropped": result.stragglers,
                "noisy_variants_left_out": result.noisy,
                "current": result.current,
                "adopted": result.adopted,
                "verdict": result.verdict,
                "runtime_profile": result.profile.to_dict() if result.profile else None,
                "skipped": skipped,
            },
            out,
        )
        return
    print(
        f"calibrated on {machine.cpu_model} ({machine.cores} cores, fingerprint "
        f"{machine.fingerprint}) from {len(result.samples)} measured variants",
        file=out,
    )
    rows = [
        [n, t, q["samples"], q["r2_log"], f"{q['mean_abs_rel_error']:.1%}"]
        for (n, t), q in sorted(result.fit_quality.items())
    ]
    table(["model", "target", "samples", "R^2 (log)", "mean abs rel error"], rows, out=out)
    print("\nleave-one-kernel-out ranking quality (wall time):", file=out)
    rows = [
        [
            h.kernel,
            h.model,
            h.tau,
            None if h.mare is None else f"{h.mare:.1%}",
            None if h.regret1 is None else f"{h.regret1:.1%}",
            h.best_pruned,
        ]
        for h in result.held_out
    ]
    table(["loop", "model", "tau", "MARE", "regret@1", "best pruned"], rows, out=out)
    for name, prior in result.search_priors.items():
        print(
            f"search prior of {name} from {prior.loops} held-out loop(s): variance between "
            f"variants {prior.variant_variance:.3f}, of the slope {prior.slope_variance:.3f} "
            "(log units)",
            file=out,
        )
    for name, rule in result.ship_rules.items():
        print(
            f"rank mode with {name}: a first pick is compiled unmeasured above a predicted "
            f"{rule.min_gain:.2f}x ({rule.lost} of {rule.loops} held-out picks lost)",
            file=out,
        )
    print(f"\ndefault model: {result.preferred}: {result.reason}", file=out)
    for name, why in result.refused.items():
        print(f"not fitted: {name}: {why}", file=out)
    if result.stragglers or result.noisy:
        print(
            f"left out: {result.stragglers} straggling run(s) (over "
            f"{cal.STRAGGLER_FACTOR:g}x their variant's median), {result.noisy} variant(s) "
            f"whose runs spread over {cal.NOISY_SPREAD:.0%}",
            file=out,
        )
    if result.profile is not None:
        print("\nthis machine's OpenMP runtime (micro-benchmarks, median of 7 trials):", file=out)
        print_profile(result.profile, out)
    print(f"new coefficients: {result.verdict}", file=out)
    if result.current.get("source"):
        source = result.current["source"]
        if not result.adopted:  # this was the calibration the advice asks for
            source = source.replace(
                "; run 'autotune calibrate' for this machine",
                "; this calibration adopted nothing: measure more (a larger --sample, "
                "more kernels, a longer --time-budget) to fit this machine",
            )
        print(
            f"coefficients in use {'before' if result.adopted else 'and kept'}: {source}",
            file=out,
        )
    for s in skipped:
        print(f"skipped: {s}", file=out)
    if getattr(args, "db_path", None):
        print(
            f"runs {'and coefficients ' if result.adopted else ''}stored in {args.db_path} "
            f"(machine {machine.fingerprint})",
            file=out,
        )
    if args.save and result.models:
        print(f"coefficients also written to {args.save}", file=out)


def print_profile(profile, out) -> None:
    rows = [
        [
            t,
            f["forkjoin_s"] * 1e6,
            f["barrier_s"] * 1e6,
            f["dispatch_s"] * 1e9,
            f["static_penalty"],
            f["bandwidth_gbs"],
        ]
        for t, f in sorted(profile.by_threads.items())
    ]
    table(
        [
            "threads",
            "fork/join us",
            "barrier us",
            "dynamic chunk ns",
            "static slow-core x",
            "triad GB/s",
        ],
        rows,
        out=out,
    )
    op = profile.by_threads[min(profile.by_threads)]["op_s"]
    print(f"one weighted operation: {op * 1e9:.3f} ns on one thread", file=out)


# Over 60 lines: --show and --reset print the same coefficient table.
def show_or_reset(args: argparse.Namespace, out=None) -> int:
    """``--show``: the coefficients in use here; ``--reset``: forget this machine's."""
    from autotune.api import Session
    from autotune.tuning.modelchoice import choose_model

    out = out or sys.stdout
    session = Session(db=args.db, cc=args.cc)
    machine = session.machine()
    with session.store() as store:
        if args.reset:
            removed = store.delete_models(machine.fingerprint)
            if args.json:
                dump_json(
                    {
                        "machine": machine.fingerprint,
                        "removed": removed,
                        "database": str(store.path),
                    },
                    out,
                )
            else:
                print(
                    f"forgot {removed} calibrated model row(s) of machine "
                    f"{machine.fingerprint} in {store.path}; rank and tune now use the "
                    "shipped defaults",
                    file=out,
                )
            return 0
        chosen = choose_model(machine, store)
        model = chosen.model
        coef = model.coefficients()
        if args.save:  # the coefficients in use, in the shipped-defaults format
            from autotune.models.defaults import coefficients_document

            doc = coefficients_document([model], machine)
            doc["preference"] = {"model": chosen.name, "reason": chosen.why}
            try:
                Path(args.save).write_text(json.dumps(doc, indent=2) + "\n")
            except OSError as exc:
                raise UserError(f"cannot write: {exc.strerror}", args.save) from None
            if not args.json:
                print(f"coefficients in use written to {args.save}", file=out)
        if args.json:
            dump_json(
                {
                    "machine": machine.to_dict(),
                    "model": chosen.name,
                    "target": chosen.target,
                    "source": chosen.source,
                    "why": chosen.why,
                    "calibrated": chosen.calibrated,
                    "coef": coef,
                    "intercept": float(model.intercept_),
                    "runtime_profile": chosen.profile.to_dict() if chosen.profile else None,
                    "database": str(store.path),
                },
                out,
            )
            return 0
        print(
            f"machine {machine.cpu_model} ({machine.cores} cores, fingerprint "
            f"{machine.fingerprint})",
            file=out,
        )
        print(f"model {chosen.name}, target {chosen.target} time: {chosen.why}", file=out)
        print(f"coefficients: {chosen.source}", file=out)
        table(
            ["feature", "exponent"],
            [[k, v] for k, v in coef.items()] + [["(log intercept)", float(model.intercept_)]],
            out=out,
        )
        if chosen.profile is not None:
            print("measured runtime costs the model uses:", file=out)
            print_profile(chosen.profile, out)
        else:
            print("runtime costs: nominal figures (no micro-benchmarks stored)", file=out)
    return 0

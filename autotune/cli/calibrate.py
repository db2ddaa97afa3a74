"""``autotune calibrate``: fit the power-law models on this machine from our kernels."""

from __future__ import annotations

import argparse
import json
import sys
import zlib
from pathlib import Path

from autotune.cli.render import Progress, dump_json, table
from autotune.errors import UserError

REPO_KERNELS = Path(__file__).resolve().parents[2] / "kernels"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--kernels", metavar="DIR", default=None,
                        help="directory of calibration kernels (default: ./kernels, else the "
                             "project's own kernels/)")
    parser.add_argument("--sample", type=int, default=10, metavar="N",
                        help="variants measured per loop (a reproducible sample; default 10; "
                             "0 = the whole default space)")
    parser.add_argument("--repetitions", type=int, default=3, metavar="R")
    parser.add_argument("--db", metavar="PATH", help="results database (default: user cache)")
    parser.add_argument("--cc", default="gcc")
    parser.add_argument("--save", metavar="FILE.json",
                        help="also write the coefficients to FILE.json (the shipped-defaults "
                             "format)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("-q", "--quiet", action="store_true")


def kernels_dir(arg: str | None) -> Path:
    for cand in ([Path(arg)] if arg else [Path("kernels"), REPO_KERNELS]):
        if cand.is_dir() and any(cand.glob("*.c")):
            return cand
    raise UserError(f"no calibration kernels found in {arg or 'kernels/'}; pass --kernels DIR")


def run(args: argparse.Namespace) -> int:
    from autotune.frontend import analyze_file
    from autotune.measure.build import BuildOptions
    from autotune.measure.machine import detect_machine
    from autotune.measure.store import Store
    from autotune.measure.sweep import Sweep, SweepOptions
    from autotune.models.defaults import coefficients_document
    from autotune.tuning import calibrate as cal
    from autotune.tuning.modelchoice import PREFERENCE
    from autotune.variants.space import BASELINE, default_space

    if args.sample == 1 or args.sample < 0:
        raise UserError("--sample must be 0 (whole space) or at least 2")
    machine = detect_machine(args.cc)
    files = cal.kernel_files(kernels_dir(args.kernels))
    result = cal.CalibrationResult()
    skipped: list[str] = []
    plans = []
    for f in files:
        try:
            unit = analyze_file(str(f), threads=machine.cores, cc=args.cc)
        except UserError as exc:
            skipped.append(f"{f}: {exc}")
            continue
        for r in unit.loops:
            if r.tunable:
                seed = zlib.crc32(r.id.encode())
                space = default_space(r, machine.cores)
                plans.append((f, r, cal.sample_space(space, args.sample or len(space), seed)))
    total = sum((len(v) + 1) * args.repetitions for _, _, v in plans)
    with Store(args.db) as store, Progress(total, "calibrate",
                                           quiet=args.quiet or args.json) as bar:
        for f, record, variants in plans:
            sweep = Sweep(f, BuildOptions(cc=args.cc),
                          SweepOptions(repetitions=args.repetitions), store, machine=machine,
                          on_run=lambda note: bar.advance(1, note))
            try:
                res = sweep.measure_loop(record, variants)
            except UserError as exc:
                skipped.append(f"{record.id}: {exc}")
                continue
            for vr in [res.baseline, *res.variants]:
                if vr is not None and vr.ok and vr.measured_s:
                    cpu = sorted(vr.cpu_s)[len(vr.cpu_s) // 2] if vr.cpu_s else None
                    result.samples.append(cal.Sample(f.name, record, vr.variant or BASELINE,
                                                     vr.measured_s, cpu))
        if not result.samples:
            raise UserError("no kernel could be measured: " + "; ".join(skipped[:3]))
        cal.fit_models(result.samples, machine, result)
        cal.leave_one_kernel_out(result.samples, machine, result)
        fp = store.add_machine(machine)
        for (name, target), model in result.models.items():
            store.save_model(name, fp, target, model.to_dict())
        store.save_model(PREFERENCE, fp, "wall",
                         {"model": result.preferred, "reason": result.reason})
        args.db_path = str(store.path)
    if args.save:
        doc = coefficients_document(result.models.values(), machine)
        doc["preference"] = {"model": result.preferred, "reason": result.reason}
        Path(args.save).write_text(json.dumps(doc, indent=2) + "\n")
    report(result, machine, skipped, args)
    return 0


def report(result, machine, skipped: list[str], args, out=None) -> None:  # noqa: ANN001
    out = out or sys.stdout
    if args.json:
        dump_json({
            "machine": machine.to_dict(),
            "samples": len(result.samples),
            "fit": [{"model": n, "target": t, **q, "coef": result.models[(n, t)].coefficients(),
                     "intercept": float(result.models[(n, t)].intercept_)}
                    for (n, t), q in result.fit_quality.items()],
            "held_out": [h.__dict__ for h in result.held_out],
            "preferred": result.preferred,
            "database": getattr(args, "db_path", None),
            "reason": result.reason,
            "skipped": skipped,
        }, out)
        return
    print(f"calibrated on {machine.cpu_model} ({machine.cores} cores, fingerprint "
          f"{machine.fingerprint}) from {len(result.samples)} measured variants", file=out)
    rows = [[n, t, q["samples"], q["r2_log"], f"{q['mean_abs_rel_error']:.1%}"]
            for (n, t), q in sorted(result.fit_quality.items())]
    table(["model", "target", "samples", "R^2 (log)", "mean abs rel error"], rows, out=out)
    print("\nleave-one-kernel-out ranking quality (wall time):", file=out)
    rows = [[h.kernel, h.model, h.tau, None if h.mare is None else f"{h.mare:.1%}",
             None if h.regret1 is None else f"{h.regret1:.1%}", h.best_pruned]
            for h in result.held_out]
    table(["loop", "model", "tau", "MARE", "regret@1", "best pruned"], rows, out=out)
    print(f"\ndefault model: {result.preferred}: {result.reason}", file=out)
    for s in skipped:
        print(f"skipped: {s}", file=out)
    if getattr(args, "db_path", None):
        print(f"runs and coefficients stored in {args.db_path} (machine {machine.fingerprint})",
              file=out)
    if args.save:
        print(f"coefficients also written to {args.save}", file=out)

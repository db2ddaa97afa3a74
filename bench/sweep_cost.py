"""Cost of an exhaustive measurement sweep, per kernel in kernels/.

For every tunable loop: how many variants the exhaustive space has, how many
runs and compiles the sweep needed, and its wall time, in the compile modes
asked for (default: runtime, the one-binary mode; add per-variant to see what
one compile per variant costs). Builds go to a fresh cache and runs to a
fresh database, so every compile and run is real. It takes minutes.

    python bench/sweep_cost.py [--modes runtime,per-variant] [--repetitions 3]
                               [--kernels dot,triad] [-D NAME=VALUE ...]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--modes", default="runtime", help="runtime,per-variant")
    ap.add_argument("--repetitions", type=int, default=3)
    ap.add_argument("--kernels", default="", help="comma-separated names (default: all)")
    ap.add_argument(
        "-D",
        dest="defines",
        action="append",
        default=[],
        help="define for every kernel, e.g. -D REPS=2",
    )
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="sweep-cost-") as tmp:
        os.environ["AUTOTUNE_CACHE_DIR"] = str(Path(tmp) / "cache")
        return run(args, Path(tmp))


def run(args: argparse.Namespace, tmp: Path) -> int:
    from autotune.analysis import analyze_file
    from autotune.errors import UserError
    from autotune.measure.build import BuildOptions
    from autotune.measure.machine import detect_machine
    from autotune.measure.spaces import exhaustive_space
    from autotune.measure.store import Store
    from autotune.measure.sweep import Sweep, SweepOptions

    machine = detect_machine()
    defines = dict(d.split("=", 1) if "=" in d else (d, "1") for d in args.defines)
    wanted = {k for k in args.kernels.split(",") if k}
    files = [f for f in sorted((ROOT / "kernels").glob("*.c")) if not wanted or f.stem in wanted]
    modes = [m for m in args.modes.split(",") if m]
    print(
        f"machine: {machine.cpu_model}, {machine.cores} cores; {args.repetitions} "
        f"repetition(s); exhaustive space per loop"
    )
    head = (
        f"{'kernel':14s} {'loop':6s} {'mode':12s} {'variants':>8s} {'runs':>6s} "
        f"{'compiles':>8s} {'wall s':>8s} {'ok':>4s} {'failed':>6s}"
    )
    print(head)
    print("-" * len(head))
    totals: dict[str, list[float]] = {m: [0, 0, 0, 0.0] for m in modes}
    for f in files:
        try:
            unit = analyze_file(str(f), defines=defines, threads=machine.cores)
        except UserError as exc:
            print(f"{f.stem:14s} cannot analyse: {exc}")
            continue
        for record in unit.loops:
            if not record.tunable:
                print(f"{f.stem:14s} {record.line:<6d} not tunable: {record.reason}")
                continue
            variants = exhaustive_space(record, machine.cores)
            for mode in modes:
                with Store(tmp / f"{f.stem}-{record.line}-{mode}.db") as store:
                    sweep = Sweep(
                        f,
                        BuildOptions(defines=defines),
                        SweepOptions(repetitions=args.repetitions, compile_mode=mode),
                        store,
                        machine=machine,
                    )
                    t0 = time.perf_counter()
                    try:
                        res = sweep.measure_loop(record, variants)
                    except UserError as exc:
                        print(f"{f.stem:14s} {record.line:<6d} {mode:12s} error: {exc}")
                        continue
                    wall = time.perf_counter() - t0
                ok = sum(v.ok for v in res.variants)
                kinds = Counter(v.status for v in res.variants if not v.ok)
                why = ", ".join(f"{k} {n}" for k, n in sorted(kinds.items()))
                tot = totals[mode]
                tot[0] += len(variants)
                tot[1] += res.runs_measured
                tot[2] += res.compiles
                tot[3] += wall
                print(
                    f"{f.stem:14s} {record.line:<6d} {mode:12s} {len(variants):8d} "
                    f"{res.runs_measured:6d} {res.compiles:8d} {wall:8.1f} {ok:4d} "
                    f"{len(variants) - ok:6d} {why}",
                    flush=True,
                )
    print("-" * len(head))
    for mode, (nv, runs, compiles, wall) in totals.items():
        print(
            f"{'total':14s} {'':6s} {mode:12s} {int(nv):8d} {int(runs):6d} {int(compiles):8d} "
            f"{wall:8.1f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

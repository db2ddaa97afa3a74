"""Thread placement on this machine: each kernel's best variant with and without binding.

For every kernel: ``autotune tune`` (small budget) finds the best verified variant;
that program, built plain, is run unbound, with OMP_PROC_BIND=close and with
OMP_PROC_BIND=spread (OMP_PLACES=cores), interleaved, median of --runs runs. The
first line says how many NUMA nodes the machine has: on one node, ``tune`` leaves
placement out of its search, and these figures show whether that costs anything.

    python bench/placement.py [--runs 7] [--kernels dot,triad]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BINDINGS = {
    "unbound": {},
    "close": {"OMP_PROC_BIND": "close", "OMP_PLACES": "cores"},
    "spread": {"OMP_PROC_BIND": "spread", "OMP_PLACES": "cores"},
}


def best_program(path: Path, work: Path) -> tuple[Path, str]:
    """The tuned source (the original when nothing won) and the winning keys."""
    from autotune.cli.main import main as cli

    out_c = work / f"{path.stem}_tuned.c"
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        rc = cli(
            [
                "tune",
                str(path),
                "--top",
                "3",
                "--repetitions",
                "2",
                "--confirm-runs",
                "3",
                "--json",
                "-q",
                "--apply",
                str(out_c),
            ]
        )
    if rc != 0:
        return path, "nothing tuned (no worksharing loop)" if rc == 2 else "tune failed"
    doc = json.loads(out.getvalue())["files"][0]
    keys = [lp["best"]["key"] for lp in doc["loops"] if lp["best"]]
    keys += [f"region t{r['threads']}" for r in doc["regions"] if r["threads"]]
    return out_c, ", ".join(keys) or "original"


def measure(exe: Path, runs: int) -> dict[str, float]:
    times: dict[str, list[float]] = {k: [] for k in BINDINGS}
    for _ in range(runs):
        for name, extra in BINDINGS.items():
            env = {k: v for k, v in os.environ.items() if k not in ("OMP_PROC_BIND", "OMP_PLACES")}
            env.update(extra)
            t = time.perf_counter()
            subprocess.run([str(exe)], env=env, capture_output=True, check=True)
            times[name].append(time.perf_counter() - t)
    return {k: statistics.median(v) for k, v in times.items()}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--kernels", default="", help="comma-separated names (default: all)")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    from autotune.measure.machine import detect_machine, numa_nodes
    from autotune.render import table

    machine, nodes = detect_machine(), numa_nodes()
    print(
        f"{machine.cpu_model}, {machine.cores} cores, {nodes} NUMA node(s)"
        + (
            ": tune leaves thread placement out of its search here"
            if nodes == 1
            else ": tune tries proc_bind(close|spread) on the whole program"
        )
    )
    names = args.kernels.split(",") if args.kernels else None
    kernels = sorted(p for p in (ROOT / "kernels").glob("*.c") if names is None or p.stem in names)
    rows = []
    with tempfile.TemporaryDirectory(prefix="placement-") as tmp:
        work = Path(tmp)
        os.environ["AUTOTUNE_CACHE_DIR"] = str(work / "cache")
        os.environ["AUTOTUNE_DB"] = str(work / "results.db")
        for path in kernels:
            src, keys = best_program(path, work)
            exe = work / path.stem
            subprocess.run(
                ["gcc", "-O2", "-fopenmp", str(src), "-o", str(exe), "-lm"],
                check=True,
                capture_output=True,
            )
            med = measure(exe, args.runs)
            best = min(med, key=med.get)
            rows.append(
                [
                    path.stem,
                    keys,
                    *(f"{med[k]:.4f}" for k in BINDINGS),
                    best,
                    f"{med['unbound'] / med[best]:.2f}x",
                ]
            )
            print(f"{path.stem}: done", file=sys.stderr)
    table(
        ["kernel", "best variant", *(f"{k} s" for k in BINDINGS), "fastest", "gain over unbound"],
        rows,
        out=sys.stdout,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

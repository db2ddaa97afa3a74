"""Time `autotune analyze` on every kernel (target: under 0.5 s per file), and analysis plus
ranking of a triangular nest (a symmetric rank-k update, N x M) over a sweep of sizes: the cost
should not grow with the problem.

Prints the median of 5 in-process runs per file (preprocess + parse + analysis), then the
size sweep (analysis; ranking of the default variant space with the shipped model).

With ``--recorded DIR`` (a folder in the layout of ../shared/recorded-16core: a
``polybench`` tree of PolyBench/C sources), every program there is ranked with the
``autotune rank`` command at MINI, SMALL, MEDIUM, LARGE and EXTRALARGE: the command's
wall time (median of 3) for a source never ranked (the kept barvinok counts removed
before each run) and once its counts are kept, and the same beyond start-up
(``autotune rank --help``), which should not grow with the size. As an installation
runs: with a bytecode cache (a temporary ``PYTHONPYCACHEPREFIX``, even where
``PYTHONDONTWRITEBYTECODE`` is set) and a fresh cache directory of its own, so the first
run also shows what parsing the system headers once costs.

    python bench/analyze_speed.py [--recorded ../shared/recorded-16core] [--json OUT]
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from autotune.analysis import analyze_file

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--recorded", metavar="DIR", help="rank every program there at 5 sizes")
    ap.add_argument("--json", metavar="OUT", help="write the --recorded figures as JSON")
    a = ap.parse_args()
    if a.recorded:
        return recorded_sweep(Path(a.recorded), a.json)
    files = sorted((ROOT / "kernels").glob("*.c")) + sorted((ROOT / "tests/data/c").glob("*.c"))
    print(f"{'file':40s} {'loops':>5s} {'median s':>9s} {'max s':>7s}")
    worst = 0.0
    for f in files:
        times, loops = [], 0
        for _ in range(5):
            t0 = time.perf_counter()
            try:
                loops = len(analyze_file(str(f)).loops)
            except Exception as exc:  # a bench reports, it does not stop
                loops = -1
                print(f"{f.name}: {exc}", file=sys.stderr)
                break
            times.append(time.perf_counter() - t0)
        if times:
            med = statistics.median(times)
            worst = max(worst, med)
            print(f"{str(f.relative_to(ROOT)):40s} {loops:5d} {med:9.3f} {max(times):7.3f}")
    print(f"\nslowest median {worst:.3f} s per file (target < 0.5 s)")
    size_sweep()
    return 0


SYRK = r"""
static double A[N][M], C[N][N];
void syrk(void)
{
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        for (int j = 0; j <= i; j++)
            for (int k = 0; k < M; k++)
                C[i][j] += 1.5 * A[i][k] * A[j][k];
}
"""


def size_sweep() -> None:
    """Analysis and ranking time of the triangular nest at growing sizes."""
    import tempfile

    from autotune.measure.machine import detect_machine
    from autotune.tuning.modelchoice import choose_model
    from autotune.tuning.ranking import rank_loop
    from autotune.variants.space import default_space

    machine = detect_machine()
    chosen = choose_model(machine, None, "auto", "wall")
    head = f"{'N x M':>12s} {'iterations':>12s} {'analyze s':>10s} {'rank s':>8s}"
    print(f"\n{head} {'variants':>9s}")
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "syrk.c"
        src.write_text(SYRK)
        for n, m in ((240, 200), (600, 500), (1200, 1000), (2400, 2000), (4800, 4000)):
            t0 = time.perf_counter()
            (rec,) = analyze_file(
                str(src), defines={"N": str(n), "M": str(m)}, threads=machine.cores
            ).loops
            t1 = time.perf_counter()
            ranking = rank_loop(rec, default_space(rec, machine.cores), chosen, machine)
            t2 = time.perf_counter()
            print(
                f"{n:>5d} x {m:<5d} {rec.iterations or 0:12d} {t1 - t0:10.3f} {t2 - t1:8.3f} "
                f"{len(ranking.variants):9d}"
            )


SIZES = ("MINI", "SMALL", "MEDIUM", "LARGE", "EXTRALARGE")


def _wall(cmd: list[str], reps: int = 3, env: dict | None = None, before=None) -> float:
    import subprocess

    times = []
    for _ in range(reps):
        if before:
            before()
        t0 = time.perf_counter()
        subprocess.run(cmd, capture_output=True, check=False, env=env)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def recorded_sweep(root: Path, out: str | None) -> int:
    """``autotune rank`` on every PolyBench program of a recorded folder, 5 sizes each."""
    import json
    import os
    import shutil
    import tempfile

    exe = shutil.which("autotune") or "autotune"
    poly = root / "polybench"
    programs = sorted(p for p in poly.rglob("*.c") if "utilities" not in p.parts)
    scratch = tempfile.mkdtemp(prefix="analyze-speed-")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env |= {"PYTHONPYCACHEPREFIX": f"{scratch}/pyc", "AUTOTUNE_CACHE_DIR": f"{scratch}/cache"}
    _wall([exe, "rank", "--help"], reps=1, env=env)  # writes the bytecode
    startup = _wall([exe, "rank", "--help"], reps=5, env=env)
    print(f"start-up (autotune rank --help): {startup:.3f} s")
    first = programs[0]
    cold = _wall(
        [exe, "rank", str(first), "-I", str(poly / "utilities"), "-I", str(first.parent)],
        reps=1,
        env=env,
    )
    print(f"first run, system headers parsed and kept: {cold - startup:.3f} s beyond start-up\n")
    counts = Path(scratch) / "cache" / "counts.json"

    def forget_counts() -> None:  # a source never ranked: barvinok counts everything
        counts.unlink(missing_ok=True)

    print(
        f"{'program':20s} "
        + " ".join(f"{s:>13s}" for s in SIZES)
        + "   (s beyond start-up: counts kept / counted anew)"
    )
    rows = []
    for prog in programs:
        cells = []
        for size in SIZES:
            cmd = [exe, "rank", str(prog), "-I", str(poly / "utilities"), "-I", str(prog.parent)]
            cmd += ["-D", f"{size}_DATASET"]
            new = _wall(cmd, env=env, before=forget_counts)
            _wall(cmd, reps=1, env=env)  # keeps this source's counts
            wall = _wall(cmd, env=env)
            cells.append((wall, new))
            rows.append({"program": prog.stem, "size": size, "wall_s": wall, "new_source_s": new})
        text = " ".join(f"{w - startup:6.3f}/{n - startup:6.3f}" for w, n in cells)
        print(f"{prog.stem:20s} {text}", flush=True)
    worst = max(r["wall_s"] for r in rows) - startup
    worst_new = max(r["new_source_s"] for r in rows) - startup
    print(
        f"\nworst beyond start-up: {worst:.3f} s with the counts kept, {worst_new:.3f} s for a "
        f"source never ranked (target 0.3 s); start-up {startup:.3f} s"
    )
    if out:
        doc = {"startup_s": startup, "first_run_s": cold, "runs": rows}
        Path(out).write_text(json.dumps(doc, indent=1))
        print(f"written: {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

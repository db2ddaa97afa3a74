"""The build hook on real build systems: our Make and CMake test projects and the
regression programs, built plain and in each hook mode.

For each project and mode (plain gcc; autotune-cc in off, apply, rank and tune
mode, each from a clean tree with its own database): the build's wall time, the
program's whole-run wall time (median of --runs runs, after one warm-up), whether
its output equals the plain build's, and how many loops the build compiled tuned
(from the build's decision log). ``apply`` follows the decisions ``tune`` stored,
so it runs after tune on the same database. Takes minutes.

    python bench/real_makefiles.py [--runs 5] [--tune-args "--top 2 --repetitions 2"]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROJECTS = {
    "make_project": (["make", "-s"], "prog"),
    "real_make": (["make", "-s"], "prog"),
    "cmake_project": (None, "build/saxpy"),
}
REGRESS = ["stream_abs.c", "region_dominant.c", "kr_main.c", "latin1_comment.c"]
MODES = ["plain", "off", "tune", "apply", "rank"]


def regress_project(dest: Path, name: str) -> Path:
    """One regression program with a two-line Makefile, as a small code would ship."""
    proj = dest / Path(name).stem
    proj.mkdir()
    shutil.copy(ROOT / "tests" / "data" / "c" / "regress" / name, proj / name)
    (proj / "Makefile").write_text(
        f"CFLAGS = -O2 -fopenmp\nLDLIBS = -lm\n"
        f"prog: {name}\n\t$(CC) $(CFLAGS) -w -o prog {name} $(LDLIBS)\n"
    )
    return proj


def build_argv(name: str, proj: Path, mode: str) -> list[list[str]]:
    cc = "gcc" if mode == "plain" else "autotune-cc gcc"
    if name == "cmake_project":
        launcher = [] if mode == "plain" else ["-DUSE_AUTOTUNE=ON"]
        return [
            ["cmake", "-S", ".", "-B", "build", "-DCMAKE_BUILD_TYPE=Release", *launcher],
            ["cmake", "--build", "build"],
        ]
    return [["make", "-s", f"CC={cc}"]]


def timed_runs(exe: Path, runs: int) -> tuple[float, str]:
    subprocess.run([str(exe)], capture_output=True, check=True, cwd=exe.parent)  # warm-up
    times, out = [], ""
    for _ in range(runs):
        t = time.perf_counter()
        out = subprocess.run(
            [str(exe)], capture_output=True, check=True, text=True, cwd=exe.parent, errors="replace"
        ).stdout
        times.append(time.perf_counter() - t)
    return statistics.median(times), out


def tuned_loops(db: Path, since: float) -> int:
    """Loops compiled tuned by the compiles logged since ``since`` (the last one per source)."""
    log = db.with_suffix(".builds.jsonl")
    last: dict[str, int] = {}
    if log.exists():
        for line in log.read_text().splitlines():
            try:
                rec = json.loads(line)
            except json.JSONDecodeError:
                continue
            if rec.get("time", 0) < since:
                continue
            for s in rec.get("sources", []):
                last[s.get("path", "")] = sum(
                    lp.get("used") == "tuned" for lp in s.get("loops", [])
                )
    return sum(last.values())


def one(name: str, src: Path, mode: str, work: Path, db: Path, args) -> list:
    proj = work / f"{name}-{mode}"
    shutil.copytree(src, proj)
    env = dict(
        os.environ,
        AUTOTUNE_DB=str(db),
        AUTOTUNE_CACHE_DIR=str(work / "cache"),
        AUTOTUNE_MODE="off" if mode == "plain" else mode,
        AUTOTUNE_QUIET="1",
        AUTOTUNE_TUNE_ARGS=args.tune_args,
    )
    start, since = time.perf_counter(), time.time()
    for argv in build_argv(name, proj, mode):
        subprocess.run(argv, cwd=proj, env=env, check=True, capture_output=True)
    build_s = time.perf_counter() - start
    exe = proj / PROJECTS.get(name, (None, "prog"))[1]
    run_s, out = timed_runs(exe, args.runs)
    return [build_s, run_s, out, tuned_loops(db, since) if mode != "plain" else 0]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=11)
    ap.add_argument("--tune-args", default="--top 2 --repetitions 2 --confirm-runs 3")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    from autotune.render import table

    rows = []
    with tempfile.TemporaryDirectory(prefix="real-makefiles-") as tmp:
        work = Path(tmp)
        sources = {n: ROOT / "tests" / "data" / "buildhook" / n for n in PROJECTS}
        if shutil.which("cmake") is None:
            sources.pop("cmake_project")
        for name in REGRESS:
            sources[Path(name).stem] = regress_project(work, name)
        for name, src in sources.items():
            db = work / f"{name}.db"
            plain_out = None
            base = None
            for mode in MODES:
                build_s, run_s, out, tuned = one(name, src, mode, work, db, args)
                plain_out = out if mode == "plain" else plain_out
                base = run_s if mode == "plain" else base
                rows.append(
                    [
                        name,
                        mode,
                        f"{build_s:.2f}",
                        f"{run_s:.4f}",
                        f"{base / run_s:.2f}x" if base else "-",
                        "same" if out == plain_out else "DIFFERENT",
                        tuned,
                    ]
                )
                print(f"{name} {mode}: done", file=sys.stderr)
    table(
        ["project", "mode", "build s", "program s (median)", "vs plain", "output", "loops tuned"],
        rows,
        out=sys.stdout,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

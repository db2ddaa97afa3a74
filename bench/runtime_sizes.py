"""Programs sized at run time: the cost of their profile run, and what tune then gains.

For each test program of tests/data/c/runtime (with its arguments): the plain
program's run time (median of --runs), the profile program's run time (same
arguments, its instrumentation included) and its build time, then
``autotune tune --args`` (small budget): the loops it could tune and the whole
program's speedup it confirmed.

    python bench/runtime_sizes.py [--runs 5]
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
DATA = ROOT / "tests" / "data" / "c" / "runtime"
PROGRAMS = [
    ("heat_flags.c", ["-n", "1500", "-s", "20"]),
    ("csr_file.c", [str(DATA / "matrix.txt")]),
    ("solver_sizes.c", ["4000000", "6"]),
]


def median_run(exe: Path, args: list[str], runs: int, env: dict | None = None) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run([str(exe), *args], capture_output=True, check=True, env=env)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=9)
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    from autotune.analysis import analyze_file
    from autotune.cli.main import main as cli
    from autotune.measure.build import BuildOptions
    from autotune.measure.profile import expressions
    from autotune.render import table
    from autotune.variants.emit import rewrite_source

    rows = []
    with tempfile.TemporaryDirectory(prefix="runtime-sizes-") as tmp:
        work = Path(tmp)
        os.environ["AUTOTUNE_CACHE_DIR"] = str(work / "cache")
        os.environ["AUTOTUNE_DB"] = str(work / "results.db")
        for name, prog_args in PROGRAMS:
            src = DATA / name
            text = src.read_text()
            build = BuildOptions()
            plain = build.build(text, name_hint="plain", source_path=src)
            loops = [r for r in analyze_file(str(src)).loops if r.nest]
            t = time.perf_counter()
            prof = build.build(
                rewrite_source(
                    text, [], instrumented=loops, profile={r.id: expressions(r) for r in loops}
                ),
                name_hint="profile",
                source_path=src,
            )
            build_s = time.perf_counter() - t
            plain_s = median_run(plain.exe_path, prog_args, args.runs)
            prof_s = median_run(
                prof.exe_path,
                prog_args,
                args.runs,
                dict(os.environ, AUTOTUNE_TIMING_FILE=str(work / "t.txt")),
            )
            out = io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
                rc = cli(
                    [
                        "tune",
                        str(src),
                        "--args",
                        " ".join(prog_args),
                        "--top",
                        "3",
                        "--repetitions",
                        "2",
                        "--confirm-runs",
                        "3",
                        "--json",
                        "-q",
                    ]
                )
            doc = json.loads(out.getvalue())["files"][0] if rc == 0 else {}
            tunable = sum(1 for lp in doc.get("loops", []) if lp["tunable"])
            program = doc.get("program") or {}
            speed = program.get("speedup")
            rows.append(
                [
                    name,
                    " ".join(Path(a).name for a in prog_args),
                    f"{plain_s:.4f}",
                    f"{prof_s:.4f}",
                    f"{prof_s / plain_s - 1:+.1%}",
                    f"{build_s:.2f}",
                    f"{tunable}/{len(doc.get('loops', []))}",
                    f"{speed:.2f}x" if speed else "original kept",
                ]
            )
            print(f"{name}: done", file=sys.stderr)
    table(
        [
            "program",
            "arguments",
            "plain s",
            "profile run s",
            "overhead",
            "profile build s",
            "loops tunable",
            "tune: whole program",
        ],
        rows,
        out=sys.stdout,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

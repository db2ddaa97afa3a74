"""What the analysis costs on third-party programs, against what the compiler takes.

For each program of ``realprogs.REAL`` (a copy of the folder given), ``gcc -O2
-fopenmp -c`` of the files of its build, timed, then ``autotune analyze`` of each file
with loops and the others as extra sources (the proof follows calls into them), in a
process of its own: its wall time and its peak memory (the child's ``ru_maxrss``). No
profile run: what is measured is the front end, the counts and the proof. The budget
this checks (issue 54): the analysis within 5x the compile, under 1 GB.

    python bench/analysis_cost.py ../shared/real-programs [--json OUT] [--repeat N]
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

from realprogs import REAL, Program


def _timed(cmd: list[str], cwd: Path, env: dict) -> tuple[float, int, int]:
    """(seconds, peak resident KiB, exit status) of one command in a process of its own."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    proc.stderr.close()
    return time.perf_counter() - t0, usage.ru_maxrss, proc.returncode


def measure(p: Program, base: Path, env: dict, repeat: int) -> dict:
    include = [f"-I{base / d}" for d in p.include]
    files = [p.source, *[e for e in p.extra if e != p.source]]
    work = Path(tempfile.mkdtemp(prefix="cost-"))
    compile_s = []
    for _ in range(repeat):
        t = 0.0
        for f in files:
            obj = work / (Path(f).stem + ".o")
            cmd = [
                "gcc",
                "-O2",
                "-fopenmp",
                *p.cflags,
                *include,
                "-c",
                str(base / f),
                "-o",
                str(obj),
            ]
            spent, _, rc = _timed(cmd, base, env)
            if rc != 0:
                raise SystemExit(f"{p.name}: the compiler failed on {f}")
            t += spent
        compile_s.append(t)
    analyze_s, peak_kib = [], 0
    for _ in range(repeat):
        t = 0.0
        for f in [p.source, *p.also]:
            extra = [x for e in files if e != f for x in ("--extra-source", str(base / e))]
            cmd = [sys.executable, "-m", "autotune", "analyze", str(base / f), "--json", *extra]
            cmd += include + [f for f in p.cflags if f.startswith(("-D", "-I"))]
            spent, kib, rc = _timed(cmd, base, env)
            if rc != 0:
                raise SystemExit(f"{p.name}: autotune analyze exited {rc} on {f}")
            t += spent
            peak_kib = max(peak_kib, kib)
        analyze_s.append(t)
    shutil.rmtree(work, ignore_errors=True)
    c, a = statistics.median(compile_s), statistics.median(analyze_s)
    return {
        "program": p.name,
        "files": len(files),
        "compile_s": c,
        "analyze_s": a,
        "ratio": a / c if c else None,
        "peak_mib": peak_kib / 1024,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("real", metavar="DIR", help="the third-party programs (copied first)")
    ap.add_argument("--json", metavar="OUT", help="write the figures as JSON")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each, median (default 3)")
    a = ap.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="real-programs-"))
    shutil.copytree(a.real, scratch / "rp")
    base = scratch / "rp"
    env = {**os.environ, "AUTOTUNE_CACHE_DIR": str(scratch / "cache")}
    env["AUTOTUNE_DB"] = str(scratch / "cost.db")
    rows = []
    for p in REAL:
        if not (base / p.source).is_file():
            continue
        for cmd in p.prepare:
            cwd = base / Path(p.source).parent if cmd[0] == "python3" else base
            subprocess.run(cmd, cwd=cwd, capture_output=True)
        # a first analysis fills the system headers' cache, as any second run finds it
        measure(p, base, env, 1)
        rows.append(measure(p, base, env, a.repeat))
        r = rows[-1]
        print(f"{p.name}: {r['analyze_s']:.2f} s against {r['compile_s']:.2f} s", file=sys.stderr)
    shutil.rmtree(scratch, ignore_errors=True)
    print("| program | files | gcc -O2 -c (s) | autotune analyze (s) | ratio | peak memory (MiB) |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['program']} | {r['files']} | {r['compile_s']:.2f} | {r['analyze_s']:.2f} | "
            f"{r['ratio']:.1f}x | {r['peak_mib']:.0f} |"
        )
    if a.json:
        Path(a.json).write_text(json.dumps(rows, indent=1))
        print(f"written: {a.json}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

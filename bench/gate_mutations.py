"""The legality gate against mutants of our own test programs: one subscript of one line
shifted or folded (``a[i]`` -> ``a[i + 1]``, ``a[i - 1]``, ``a[i / 2]``, ``a[i % 3]``),
or two swapped (``a[i][j]`` -> ``a[j][i]``), which may add a dependence the gate must
now see; or one ``#pragma omp for`` given ``nowait``, or one ``#pragma omp barrier``
taken out, which lets the team run on into code that may rely on the iteration-to-thread
mapping.

A mutant the gate still proves some loop of is built and run as written, then with its
proven loops' variants (static,1 and dynamic,1 at 3 threads). A mutant counts only when
its program is defined and deterministic as written:

- ``undefined``: built with ``-fsanitize=address,undefined`` it reports an error at one
  thread (an off-by-one subscript out of its array or row): C gives it no result;
- ``varies``: as written, its output at 1, 2 and 3 threads, and at 2 again, is not one
  (a loop or task the gate keeps has a race as written): a variant's difference would
  prove nothing.

Every other difference between a variant's output and the original's is a hole in the
gate, printed with the mutation. The programs are ours (``tests/data/c``, ``kernels``),
or those under ``--dir``; nothing is written outside a temporary directory.

    python bench/gate_mutations.py [--count N] [--seed S]
                                   [--only shift|swap|nowait|barrier]
                                   [--dir DIR] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from autotune.measure.verify import compare_outputs

ROOT = Path(__file__).resolve().parent.parent
SUBSCRIPT = re.compile(r"\[\s*([A-Za-z_]\w*)\s*\]")
PAIR = re.compile(r"\[\s*([A-Za-z_]\w*)\s*\]\[\s*([A-Za-z_]\w*)\s*\]")
SHIFTS = ("+ 1", "- 1", "/ 2", "% 3")
TIMEOUT = 20
NOWAIT = " nowait"
KINDS = ("shift", "swap", "nowait", "barrier")


def kind(new: str) -> str:
    """What a replacement does: one of ``KINDS``."""
    if new == NOWAIT:
        return "nowait"
    if new == "":
        return "barrier"
    return "swap" if "][" in new else "shift"


def mutants(seed: int, files: list[Path]) -> list[tuple[Path, int, int, int, str]]:
    """(file, line index, start, end, replacement) for every subscript of every line of
    code, shuffled with ``seed``."""
    out = []
    for f in files:
        text = f.read_text(errors="replace")
        if "main" not in text:
            continue
        for n, line in enumerate(text.split("\n")):
            if line.lstrip().startswith(("#", "//", "/*", "*")):
                continue
            for m in SUBSCRIPT.finditer(line):
                for shift in SHIFTS:
                    out.append((f, n, m.start(), m.end(), f"[{m.group(1)} {shift}]"))
            for m in PAIR.finditer(line):  # a[i][j] -> a[j][i]
                if m.group(1) != m.group(2):
                    out.append((f, n, m.start(), m.end(), f"[{m.group(2)}][{m.group(1)}]"))
        for n, line in enumerate(text.split("\n")):
            words = line.split()
            if words[:3] == ["#pragma", "omp", "for"] and "nowait" not in words:
                if not line.rstrip().endswith("\\"):  # the team runs on past the loop
                    out.append((f, n, len(line.rstrip()), len(line.rstrip()), NOWAIT))
            elif words == ["#pragma", "omp", "barrier"]:  # no barrier here any more
                out.append((f, n, 0, len(line), ""))
    random.Random(seed).shuffle(out)
    return out


def _run(argv: list[str], cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT, env=env)


def _output(exe: str, cwd: Path, threads: int) -> tuple[int, str] | None:
    env = {"PATH": "/usr/bin:/bin", "OMP_NUM_THREADS": str(threads)}
    try:
        done = _run([exe], cwd, env)
    except subprocess.TimeoutExpired:
        return None
    return done.returncode, done.stdout


def judge(src: Path, work: Path) -> dict:
    """What one mutant is: not proven, undefined, varies, clean, or a hole."""
    analysed = _run([sys.executable, "-m", "autotune", "analyze", src.name, "--json"], work)
    try:
        loops = json.loads(analysed.stdout)["loops"]
    except (json.JSONDecodeError, KeyError):
        return {"verdict": "unparsed"}
    proven = [lp for lp in loops if lp["tunable"]]
    if not proven:
        return {"verdict": "kept"}
    cc = ["gcc", "-O1", "-fopenmp", src.name, "-lm", "-o"]
    if (
        _run(
            [
                *cc[:3],
                "-g",
                "-fsanitize=address,undefined",
                "-fno-sanitize-recover=all",
                *cc[3:],
                "san",
            ],
            work,
        ).returncode
        != 0
        or _run([*cc, "orig"], work).returncode
    ):
        return {"verdict": "unbuilt"}
    san = _output("./san", work, 1)
    if san is None or san[0] != 0:
        return {"verdict": "undefined"}
    runs = [_output("./orig", work, t) for t in (2, 1, 3, 2)]
    one = runs[0]  # the variants run at 2 threads too (their clause sets their own team)
    if None in runs or any(r != one for r in runs) or one[0] != 0:
        return {"verdict": "varies"}
    made = _run(
        [
            sys.executable,
            "-m",
            "autotune",
            "variants",
            src.name,
            "-o",
            "v",
            "--schedules",
            "static,dynamic",
            "--chunks",
            "1",
            "--threads",
            "3",
        ],
        work,
    )
    if made.returncode != 0:
        return {"verdict": "unbuilt"}
    tolerant = {lp["line"]: bool(lp["reassociates"]) for lp in loops}
    manifest = json.loads((work / "v" / "manifest.json").read_text())
    for lp in manifest["loops"]:
        for v in lp.get("variants", []):
            if v["key"] == "baseline":
                continue
            build = ["gcc", "-O1", "-fopenmp", "v/" + v["file"], "-lm", "-o", "x"]
            if _run(build, work).returncode:
                continue
            got = _output("./x", work, 2)
            if got is None:
                return {"verdict": "hole", "variant": v["file"], "why": "ran past the time limit"}
            same, why = compare_outputs(one[1], got[1], tolerant=tolerant.get(lp["line"], False))
            if not same or got[0] != one[0]:
                return {"verdict": "hole", "variant": v["file"], "why": why or "exit status"}
    return {"verdict": "clean", "proven": len(proven)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=100, help="mutants the gate still proves")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", type=Path, help="write every mutant's verdict")
    ap.add_argument(
        "--only",
        choices=KINDS,
        help="only shifted or swapped subscripts, a nowait added to an omp for, or a "
        "barrier taken out",
    )
    ap.add_argument("--dir", type=Path, help="mutate these C programs instead of ours")
    args = ap.parse_args()
    if args.dir:
        files = sorted(args.dir.rglob("*.c"))
    else:
        files = sorted((ROOT / "tests" / "data" / "c").rglob("*.c"))
        files += sorted((ROOT / "kernels").glob("*.c"))
    rows, proven = [], 0
    for f, n, start, end, new in mutants(args.seed, files):
        if args.only and kind(new) != args.only:
            continue
        if proven >= args.count:
            break
        lines = f.read_text(errors="replace").split("\n")
        before = lines[n]
        lines[n] = before[:start] + new + before[end:]
        work = Path(tempfile.mkdtemp(prefix="mutant-"))
        try:
            for side in [*f.parent.glob("*.h"), *f.parent.glob("*.txt")]:
                shutil.copy(side, work / side.name)
            (work / f.name).write_text("\n".join(lines))
            row = judge(work / f.name, work)
        except subprocess.TimeoutExpired:
            row = {"verdict": "unbuilt"}
        finally:
            shutil.rmtree(work, ignore_errors=True)
        shown = f.relative_to(ROOT) if f.is_relative_to(ROOT) else f
        row.update(file=str(shown), line=n + 1, was=before.strip(), now=lines[n].strip())
        rows.append(row)
        if row["verdict"] not in ("kept", "unparsed"):
            proven += 1
            print(
                f"[{proven}/{args.count}] {row['file']}:{row['line']} {row['verdict']}",
                file=sys.stderr,
                flush=True,
            )
        if row["verdict"] == "hole":
            print(
                f"HOLE {row['file']}:{row['line']}: {row['was']!r} -> {row['now']!r}: "
                f"{row['variant']}: {row['why']}",
                flush=True,
            )
    counts: dict[str, int] = {}
    for r in rows:
        counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
    print(" ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    if args.json:
        args.json.write_text(
            json.dumps({"seed": args.seed, "counts": counts, "mutants": rows}, indent=1)
        )
        print(f"written: {args.json}")
    return 1 if counts.get("hole") else 0


if __name__ == "__main__":
    sys.exit(main())

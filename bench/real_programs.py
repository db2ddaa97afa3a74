"""autotune on the third-party programs of ../shared/real-programs, as a user runs it.

Each program is copied to a scratch folder (its build writes into the tree; nothing of
it is kept), prepared as its README says, then tuned with ``autotune tune --json`` from
its own folder: its other files as ``--extra-source``, its arguments, its result checked
by its own output (timing lines ignored), by the files it writes (``--check-file``) or
by its exit status (``--expect-status``); ``--as-written`` gives no ``--check-ignore``
words (autotune then leaves out the times the programs print by itself). Per program:
loops found, how many may vary, where their sizes came from, what shipped, the
whole-program ratio with its 95% interval, whether the loops' own figures agreed with
the program, how the output was verified, and the tuning time.

    python bench/real_programs.py --real ../shared/real-programs [--only NAME]
        [--ours] [--top 2] [--repetitions 2] [--confirm-runs 5] [--json OUT] [--md OUT]
        [--as-written]

``--ours`` tunes the project's kernels (kernels/*.c) and the Rodinia-lud-style LU of the
proof's tests (tests/data/c/proof/lud_rows.c, at SIZE=384) the same way.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
from realprogs import REAL, Program  # noqa: E402


def tune_command(p: Program, base: Path, a: argparse.Namespace) -> list[str]:
    """The ``autotune tune`` command line a user would write for ``p``."""
    cmd = [sys.executable, "-m", "autotune", "tune", str(base / p.source), "--json", "-q"]
    cmd += ["--top", str(a.top), "--repetitions", str(a.repetitions)]
    cmd += ["--confirm-runs", str(a.confirm_runs)]
    for e in p.extra:
        cmd += ["--extra-source", str(base / e)]
    for d in p.include:
        cmd += ["-I", str(base / d)]
    if p.cflags:
        cmd += ["--cflags", " ".join(p.cflags)]
    if p.args:
        cmd += ["--args", " ".join(p.args)]
    for word in [] if a.as_written else p.ignore:
        cmd += ["--check-ignore", re.escape(word) if word else ""]
    for f in p.check_files:
        cmd += ["--check-file", f]
    if p.check != "stdout":
        cmd += ["--check", p.check]
    if p.expect_status:
        cmd += ["--expect-status", str(p.expect_status)]
    return cmd


def verified_by(p: Program, loops: list[dict]) -> str:
    warnings = [w for lp in loops for w in lp.get("warnings", [])]
    if any("verification is empty" in w for w in warnings):
        return "nothing (said)"
    if p.checked_by.startswith("nothing"):
        return p.checked_by  # backprop: what it prints holds no result
    parts = [p.check] if p.check not in ("files", "none") else []
    parts += p.check_files
    if p.expect_status:
        parts.append(f"exit status {p.expect_status}")
    return " + ".join(parts) or "-"


def verification(loops: list[dict]) -> dict:
    """What the comparisons left out, whether the original was unstable, and how many
    measured variants failed it."""
    warnings = [w for lp in loops for w in lp.get("warnings", [])]
    left_out = next((w for w in warnings if w.startswith("not compared: ")), "")
    return {
        "not_compared": left_out,
        "unstable": any("differs between runs" in w for w in warnings),
        "wrong_output": sum(
            1 for lp in loops for v in lp.get("variants", []) if v["status"] == "wrong-output"
        ),
        "ok": sum(1 for lp in loops for v in lp.get("variants", []) if v["status"] == "ok"),
    }


def row_of(p: Program, doc: dict | None, seconds: float, error: str) -> dict:
    """One program's figures from its tune JSON."""
    if doc is None:
        return {"program": p.name, "error": error, "seconds": seconds}
    loops = doc["loops"]
    program = doc.get("program") or {}
    iv = program.get("speedup_interval")
    return {
        "program": p.name,
        "loops": len(loops),
        "variable": sum(1 for lp in loops if lp["tunable"]),
        "facts": dict(Counter(lp["facts"] for lp in loops)),
        "measured": sum(1 for lp in loops if lp["baseline"] is not None),
        "chosen_by_loop": sum(1 for lp in loops if lp["best"] is not None),
        "shipped": len(program.get("kept") or []),
        "whole_program": program.get("speedup"),
        "interval": [iv["low"], iv["high"]] if iv else None,
        "decision": (program.get("decision") or "")[:200],
        "busy": program.get("busy") or "",
        "agreement": program.get("agreement") or [],
        "untrusted": sorted((program.get("loop_figures_disagree") or {}).keys()),
        "verified_by": verified_by(p, loops),
        "verification": verification(loops),
        "runtime_build": runtime_builds(loops),
        "profile": doc.get("profile") or "",
        "seconds": seconds,
        "error": error,
    }


def runtime_builds(loops: list[dict]) -> list[dict]:
    """Each measured loop's original against its twin in the run-time selection build."""
    out = []
    for lp in loops:
        check = lp.get("runtime_build")
        if check and check.get("original_over_twin"):
            ratio = 1.0 / check["original_over_twin"]["ratio"]  # twin time / original's
            out.append(
                {"loop": lp["id"], "twin_over_original": ratio, "own": check["own_binaries"]}
            )
    return out


def _twins(r: dict) -> str:
    checks = r.get("runtime_build") or []
    if not checks:
        return "-"
    own = sum(c["own"] for c in checks)
    spread = ", ".join(f"{c['twin_over_original']:.2f}x" for c in checks[:4])
    return f"{own}/{len(checks)} switched ({spread}{', ...' if len(checks) > 4 else ''})"


def run_one(p: Program, base: Path, a: argparse.Namespace) -> dict:
    for cmd in p.prepare:
        cwd = base / Path(p.source).parent if cmd[0] == "python3" else base
        subprocess.run(cmd, cwd=cwd, capture_output=True, check=False)
    env = dict(os.environ, AUTOTUNE_DB=str(base / "bench.db"))
    env["AUTOTUNE_CACHE_DIR"] = str(base / "cache")
    cwd = base / Path(p.source).parent
    t0 = time.monotonic()
    try:
        res = subprocess.run(
            tune_command(p, base, a),
            cwd=cwd,
            env=env,
            capture_output=True,
            text=True,
            timeout=a.timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return row_of(p, None, time.monotonic() - t0, f"over {a.timeout} s")
    seconds = time.monotonic() - t0
    if res.returncode not in (0, 3) or not res.stdout.strip():
        return row_of(p, None, seconds, (res.stderr.strip().splitlines() or ["?"])[-1][:300])
    (doc,) = json.loads(res.stdout)["files"]
    return row_of(p, doc, seconds, "")


def table(rows: list[dict]) -> str:
    out = [
        "| program | loops | variable | sizes from | measured | shipped | whole program "
        "[95% interval] | loop figures agree | run-time build (twin / original) | verified by | "
        "tuning time (s) |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        if r.get("error") and "loops" not in r:
            out.append(
                f"| {r['program']} | error: {r['error']} | | | | | | | | | {r['seconds']:.0f} |"
            )
            continue
        facts = ", ".join(f"{k} {v}" for k, v in sorted(r["facts"].items()))
        wp = (
            f"{r['whole_program']:.3f}x [{r['interval'][0]:.3f}, {r['interval'][1]:.3f}]"
            if r["whole_program"] and r["interval"]
            else "original kept"
        )
        if r["busy"]:
            wp += " (machine busy)"
        agree = [g["agrees"] for g in r["agreement"]]
        agreed = f"{sum(agree)}/{len(agree)} sets" if agree else "-"
        if r["untrusted"]:
            agreed += f"; {len(r['untrusted'])} loop(s) marked untrusted"
        out.append(
            f"| {r['program']} | {r['loops']} | {r['variable']} | {facts} | {r['measured']} | "
            f"{r['shipped']} | {wp} | {agreed} | {_twins(r)} | {r['verified_by']} | "
            f"{r['seconds']:.0f} |"
        )
    return "\n".join(out)


def ours() -> list[tuple[Program, Path]]:
    """The project's kernels and its lud-style LU, each with the folder holding it."""
    out = [
        (Program(f"kernels/{f.name}", f.name), f.parent) for f in sorted(ROOT.glob("kernels/*.c"))
    ]
    lud = ROOT / "tests" / "data" / "c" / "proof" / "lud_rows.c"
    out.append((Program("lud_rows.c (SIZE=384)", lud.name, cflags=["-DSIZE=384"]), lud.parent))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--real", metavar="DIR", help="../shared/real-programs")
    ap.add_argument("--ours", action="store_true", help="also the kernels and bench programs")
    ap.add_argument("--only", metavar="NAME", action="append", help="only these programs")
    ap.add_argument("--top", type=int, default=2, help="variants measured per loop")
    ap.add_argument("--repetitions", type=int, default=2)
    ap.add_argument("--confirm-runs", type=int, default=5)
    ap.add_argument("--timeout", type=float, default=600.0, help="per program (s)")
    ap.add_argument("--json", metavar="OUT", help="write every figure as JSON")
    ap.add_argument("--md", metavar="OUT", help="write the table as Markdown")
    ap.add_argument(
        "--as-written",
        action="store_true",
        help="give no --check-ignore words: verify as a user who names none would",
    )
    a = ap.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="real-programs-"))
    rows = []
    todo = [(p, Path(a.real)) for p in REAL if a.real] + (ours() if a.ours else [])
    try:
        for p, origin in todo:
            if a.only and p.name not in a.only:
                continue
            base = scratch / p.name.replace(" ", "_").replace("/", "_")
            if origin.is_dir() and a.real and origin == Path(a.real):
                shutil.copytree(origin, base)
            else:
                base.mkdir(parents=True)
                shutil.copy(origin / p.source, base / p.source)
            print(f"{p.name}: tuning ...", file=sys.stderr, flush=True)
            rows.append(run_one(p, base, a))
            r = rows[-1]
            print(
                f"{p.name}: {r.get('error') or r.get('decision', '')[:120]} ({r['seconds']:.0f} s)",
                file=sys.stderr,
                flush=True,
            )
            shutil.rmtree(base, ignore_errors=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    text = table(rows)
    print(text)
    if a.json:
        Path(a.json).write_text(json.dumps(rows, indent=1) + "\n")
        print(f"figures written to {a.json}", file=sys.stderr)
    if a.md:
        Path(a.md).write_text(text + "\n")
        print(f"table written to {a.md}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The legality gate against a race benchmark: DataRaceBench-style programs named
``*-yes.c`` (a data race, by the suite's ground truth) and ``*-no.c`` (none).

Every OpenMP loop of every program is analysed as ``autotune analyze`` does, with one
profile run (no arguments) so loops sized at run time get a verdict. A loop the gate
lets vary in a ``-yes`` program is printed as a miss to look at: the race may be
elsewhere in the program, or absent at the measured sizes (then the verdict carries a
guard on them); a loop of a ``-no`` program kept as written is a loss of precision.
The programs stay outside the repository (third-party code).

    python bench/race_bench.py DIR [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from autotune.render import table


def verdicts(path: Path) -> list[dict]:
    """One row per loop: what may vary, why not, and the guard on the sizes."""
    argv = [sys.executable, "-m", "autotune", "analyze", str(path), "--json"]
    argv += ["--args", "", "--ldflags", "-lm"]
    done = subprocess.run(argv, capture_output=True, text=True, cwd=path.parent)
    try:
        loops = json.loads(done.stdout)["loops"]
    except (json.JSONDecodeError, KeyError):
        why = (done.stderr.strip().splitlines() or ["no output"])[-1][:120]
        return [{"program": path.name, "line": None, "varies": "-", "guard": "", "why": why}]
    rows = []
    for lp in loops:
        kept = lp.get("kept") or {}
        varies = [d for d in ("schedule", "threads") if d not in kept] if lp["tunable"] else []
        rows.append(
            {
                "program": path.name,
                "line": lp["line"],
                "varies": ",".join(varies) or "nothing",
                "guard": lp.get("guard") or "",
                "why": (lp.get("reason") or "; ".join(kept.values()))[:120],
            }
        )
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir", help="folder of *-yes.c and *-no.c programs")
    ap.add_argument("--json", metavar="OUT", help="write every loop's row")
    args = ap.parse_args()
    files = sorted(Path(args.dir).glob("*-yes.c")) + sorted(Path(args.dir).glob("*-no.c"))
    if not files:
        print(f"race_bench: no *-yes.c or *-no.c program in {args.dir}", file=sys.stderr)
        return 2
    rows = [row for f in files for row in verdicts(f)]
    for row in rows:
        racy = row["program"].endswith("-yes.c")
        row["look"] = (
            "miss?"
            if racy and row["varies"] not in ("nothing", "-")
            else "precision"
            if not racy and row["varies"] == "nothing"
            else ""
        )
    print(
        table(
            ["program", "line", "varies", "guard", "look", "why"],
            [[r["program"], r["line"], r["varies"], r["guard"], r["look"], r["why"]] for r in rows],
        )
    )
    yes = [r for r in rows if r["program"].endswith("-yes.c")]
    no = [r for r in rows if r["program"].endswith("-no.c")]
    print(
        f"\n{len(yes)} loops of racy programs: {sum(r['look'] == 'miss?' for r in yes)} "
        f"allowed to vary ({sum(bool(r['guard']) for r in yes if r['look'])} under a guard)"
    )
    print(
        f"{len(no)} loops of race-free programs: "
        f"{sum(r['look'] == 'precision' for r in no)} kept as written"
    )
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
        print(f"written: {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

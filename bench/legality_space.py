"""The legality gate and runtime equivalence on our kernels and the trap corpus.

For every loop: the default variant space without the gate, with it, and after
collapsing what libgomp runs identically (measured nothing twice); with
``--sweep``, every remaining variant is measured (exhaustive tune, fresh cache and
database) and the wrong-output verdicts counted, which must be 0.

    python bench/legality_space.py [--sweep] [--repetitions 1] [--files kernels/dot.c,...]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import sys
import tempfile
from copy import deepcopy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_FILES = sorted([*ROOT.glob("kernels/*.c"), *ROOT.glob("tests/data/c/legality/*.c")])


def space_sizes(path: Path, cores: int, runtime: str) -> list[dict]:
    from autotune.analysis import analyze_file
    from autotune.variants.equivalence import collapse
    from autotune.variants.space import default_space

    rows = []
    for r in analyze_file(str(path), threads=cores).loops:
        ungated = deepcopy(r)
        ungated.kept, ungated.region_threads = {}, False
        if r.kept and not ungated.tunable and all(w in ungated.reason for w in r.kept.values()):
            ungated.tunable, ungated.reason = True, ""
        gated = default_space(r, cores)
        kept, same = collapse(r, gated, runtime)
        rows.append(
            {
                "loop": r.id.replace(str(ROOT) + "/", ""),
                "ungated": len(default_space(ungated, cores)),
                "gated": len(gated),
                "measured": len(kept),
                "equivalent": len(same),
                "kept": ", ".join(sorted(r.kept)) or "-",
                "region": r.region_threads,
            }
        )
    return rows


def sweep_wrong(path: Path, repetitions: int) -> dict[str, int]:
    """Exhaustive tune of the file: wrong-output verdicts per loop id."""
    from autotune.cli.main import main as cli

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        rc = cli(
            [
                "tune",
                str(path),
                "--exhaustive",
                "--repetitions",
                str(repetitions),
                "--confirm-runs",
                "1",
                "--json",
                "-q",
            ]
        )
    if rc != 0:
        return {}
    loops = json.loads(out.getvalue())["files"][0]["loops"]
    return {
        lp["id"].replace(str(ROOT) + "/", ""): sum(
            v["status"] == "wrong-output" for v in lp["variants"]
        )
        for lp in loops
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sweep", action="store_true", help="measure every remaining variant")
    ap.add_argument("--repetitions", type=int, default=1)
    ap.add_argument("--files", default="", help="comma-separated C files (default: all)")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    from autotune.measure.machine import detect_machine
    from autotune.measure.omp_runtime import openmp_runtime
    from autotune.render import table

    files = [Path(f) for f in args.files.split(",")] if args.files else DEFAULT_FILES
    machine, runtime = detect_machine(), openmp_runtime()
    print(f"{machine.cpu_model}, {machine.cores} cores, OpenMP runtime {runtime}")
    rows, totals = [], [0, 0, 0, 0]
    with tempfile.TemporaryDirectory(prefix="legality-") as tmp:
        os.environ["AUTOTUNE_CACHE_DIR"] = str(Path(tmp) / "cache")
        os.environ["AUTOTUNE_DB"] = str(Path(tmp) / "results.db")
        for path in files:
            wrong = sweep_wrong(path, args.repetitions) if args.sweep else {}
            for row in space_sizes(path, machine.cores, runtime):
                w = wrong.get(row["loop"], "-") if args.sweep else "-"
                rows.append(
                    [
                        row["loop"],
                        row["ungated"],
                        row["gated"],
                        row["measured"],
                        row["equivalent"],
                        row["kept"],
                        "yes" if row["region"] else "-",
                        w,
                    ]
                )
                totals = [
                    a + b
                    for a, b in zip(
                        totals,
                        [
                            row["ungated"],
                            row["gated"],
                            row["measured"],
                            w if isinstance(w, int) else 0,
                        ],
                        strict=True,
                    )
                ]
    table(
        [
            "loop",
            "space, no gate",
            "gated",
            "measured",
            "equivalent (not measured)",
            "kept as written",
            "region threads",
            "wrong-output",
        ],
        rows,
        out=sys.stdout,
    )
    print(
        f"\ntotal: {totals[0]} variants without the gate, {totals[1]} with it, {totals[2]} "
        f"left to measure after runtime equivalence"
        + (f"; wrong-output verdicts in the exhaustive sweeps: {totals[3]}" if args.sweep else "")
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

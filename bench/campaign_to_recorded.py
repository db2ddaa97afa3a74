"""Turn an exhaustive campaign's database into the recorded-sweep layout bench/recorded.py reads.

    python3 bench/campaign_to_recorded.py --db polybench16.db --label polybench16 \
        --sources .rec --machine machine.txt --out /tmp/dev16

writes OUT/measurements.csv (file, defines, loop_line, variant, schedule, chunk,
threads, median_s, runs, status), copies the sources to OUT/polybench/ and the
machine description to OUT/machine.txt, so that
``bench/ranking_quality.py --recorded OUT`` replays the campaign's sweeps.
"""

from __future__ import annotations

import argparse
import csv
import shutil
from pathlib import Path

from autotune.measure.outcomes import load_outcomes
from autotune.measure.store import Store

COLUMNS = ["file", "defines", "loop_line", "variant", "schedule", "chunk", "threads"]
COLUMNS += ["median_s", "runs", "status"]


def rows(db: Path, label: str, sources: Path) -> list[dict]:
    out = []
    with Store(db) as store:
        outcomes = load_outcomes(store, label)
    for o in outcomes:
        d = o.doc
        if "failed" in d or not d.get("baseline"):
            continue
        path = Path(d["file"])
        rel = next(
            (
                str(path.relative_to(p))
                for p in [sources.resolve(), *path.parents]
                if path.is_relative_to(p) and (sources / path.relative_to(p)).is_file()
            ),
            path.name,
        )
        line = int(o.loop_id.rsplit(":", 1)[-1])
        common = {"file": rel, "defines": o.size, "loop_line": line}
        out.append(
            common
            | {
                "variant": "baseline",
                "schedule": "",
                "chunk": "",
                "threads": "",
                "median_s": d["baseline"],
                "runs": "",
                "status": "ok",
            }
        )
        for v in d["variants"]:
            if v["status"] == "pruned":
                continue
            out.append(
                common
                | {
                    "variant": v["key"],
                    "schedule": v["schedule"] or "",
                    "chunk": v["chunk"] if v["chunk"] is not None else "",
                    "threads": v["threads"] if v["threads"] is not None else "",
                    "median_s": v["measured_s"] if v["measured_s"] is not None else "",
                    "runs": v["runs"],
                    "status": v["status"],
                }
            )
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", type=Path, required=True)
    ap.add_argument("--label", required=True)
    ap.add_argument("--sources", type=Path, required=True, help="the plan's folder")
    ap.add_argument("--machine", type=Path, required=True, help="lscpu-like machine.txt")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    table = rows(args.db, args.label, args.sources)
    with (args.out / "measurements.csv").open("w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=COLUMNS)
        writer.writeheader()
        writer.writerows(table)
    shutil.copytree(args.sources, args.out / "polybench", dirs_exist_ok=True)
    shutil.copy(args.machine, args.out / "machine.txt")
    print(f"{len(table)} rows written to {args.out / 'measurements.csv'}")


if __name__ == "__main__":
    main()

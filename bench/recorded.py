"""Load exhaustive sweeps recorded elsewhere (``../shared/recorded-16core`` layout).

The directory holds ``measurements.csv`` (file, defines, loop_line, variant,
schedule, chunk, threads, median_s, runs, status), ``machine.txt`` (lscpu-like
lines) and the program sources under ``polybench/``. Each loop is analysed here
with autotune's own front end for the recorded machine, so the models can be
replayed offline: nothing is compiled or run.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass, field
from pathlib import Path

from autotune.analysis import analyze_file
from autotune.errors import UserError
from autotune.frontend.records import LoopRecord
from autotune.measure.machine import Machine
from autotune.variants.space import BASELINE, Variant

DEFAULT_DIR = Path(__file__).resolve().parents[2] / "shared" / "recorded-16core"


@dataclass
class RecordedLoop:
    """One loop's exhaustive sweep: the analysis record and every measured time."""

    program: str  # file relative to the sources root
    defines: str
    line: int
    record: LoopRecord
    baseline_s: float
    times: dict[Variant, float] = field(default_factory=dict)  # every variant but the baseline

    @property
    def name(self) -> str:
        return f"{Path(self.program).stem}:{self.line}"


def recorded_machine(directory: Path) -> Machine:
    """The machine of ``machine.txt`` (cores, L2 per core); L1 assumed 48 KiB 12-way."""
    text = (directory / "machine.txt").read_text()
    cores = int(re.search(r"Core\(s\) per socket:\s*(\d+)", text).group(1))
    l2 = re.search(r"L2 cache:\s*([\d.]+)\s*MiB\s*\((\d+) instances\)", text)
    l2_bytes = int(float(l2.group(1)) * 2**20 / int(l2.group(2))) if l2 else 2 * 2**20
    l3 = re.search(r"L3 cache:\s*([\d.]+)\s*MiB", text)
    l3_bytes = int(float(l3.group(1)) * 2**20) if l3 else 32 * 2**20
    first = text.splitlines()[0].strip()
    model = re.search(r"Model name:\s*(.+)", text)
    return Machine(
        cpu_model=(model.group(1).strip() if model else first),
        cores=cores,
        l1d_bytes=48 * 1024,
        l1d_assoc=12,
        l2_bytes=l2_bytes,
        l2_assoc=16,
        l3_bytes=l3_bytes,
        l3_assoc=16,
        line_bytes=64,
    )


def _defines(text: str) -> dict[str, str]:
    out = {}
    for tok in text.replace("-D ", "-D").split():
        if tok.startswith("-D"):
            name, _, value = tok[2:].partition("=")
            out[name] = value or "1"
    return out


def _variant(row: dict) -> Variant:
    chunk = int(row["chunk"]) if row["chunk"] not in ("", "-") else None
    return Variant(row["schedule"] or None, chunk, int(row["threads"]) if row["threads"] else None)


def load(
    directory: Path = DEFAULT_DIR, cores: int | None = None
) -> tuple[Machine, list[RecordedLoop]]:
    """Every recorded loop with its analysis record (loops the front end misses are skipped)."""
    directory = Path(directory)
    machine = recorded_machine(directory)
    src = directory / "polybench"
    rows = [
        r
        for r in csv.DictReader((directory / "measurements.csv").open())
        if r["status"] == "ok" and r["median_s"]
    ]
    loops: dict[tuple[str, str, int], RecordedLoop] = {}
    units = {}
    for r in rows:
        key = (r["file"], r["defines"], int(r["loop_line"]))
        if key not in loops:
            ukey = key[:2]
            if ukey not in units:
                path = src / r["file"]
                try:
                    units[ukey] = analyze_file(
                        str(path),
                        defines=_defines(r["defines"]),
                        include_dirs=[str(src / "utilities"), str(path.parent)],
                        threads=cores or machine.cores,
                    )
                except UserError as exc:
                    print(f"skipped {r['file']}: {exc}")
                    units[ukey] = None
            unit = units[ukey]
            rec = (
                None if unit is None else next((lr for lr in unit.loops if lr.line == key[2]), None)
            )
            if rec is None:
                continue
            loops[key] = RecordedLoop(key[0], key[1], key[2], rec, float("nan"))
        loop = loops[key]
        v = _variant(r) if r["variant"] != "baseline" else BASELINE
        if v.is_baseline:
            loop.baseline_s = float(r["median_s"])
        else:
            loop.times[v] = float(r["median_s"])
    return machine, [lp for lp in loops.values() if lp.times and lp.baseline_s == lp.baseline_s]

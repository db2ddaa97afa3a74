"""The decision log: one JSON line per C source the wrapper saw compiled.

Each compile is its own process (many at once under ``make -j``), so the log
is append-only and each record is written with one ``write`` on an
``O_APPEND`` descriptor: lines from concurrent compiles never interleave and
no lock is taken. ``autotune report-build`` groups the newest records into
"the last build": records sharing ``$AUTOTUNE_BUILD_ID``, or else records no
more than a gap apart in time.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass, field

MAX_LOG_BYTES = 8 * 1024 * 1024  # then the log is renamed to .1 and restarted
DEFAULT_GAP_S = 120.0


@dataclass
class LoopDecision:
    loop_id: str
    line: int
    used: str  # "tuned" | "original"
    variant: str = "baseline"  # Variant.key compiled
    reason: str = ""
    function: str = ""


@dataclass
class SourceDecision:
    """What the wrapper compiled for one C source, and why."""

    source: str  # as written on the command line
    path: str = ""  # absolute
    used: str = "original"  # "tuned" | "original"
    reason: str = ""
    loops: list[LoopDecision] = field(default_factory=list)
    source_hash: str = ""
    flags_key: str = ""
    machine: str = ""
    cached: bool = False  # decided from the decision cache (no parse)
    warning: bool = False  # the reason is a failure inside autotune

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> SourceDecision:
        loops = [LoopDecision(**ld) for ld in d.get("loops", [])]
        known = {k: v for k, v in d.items() if k in cls.__dataclass_fields__ and k != "loops"}
        return cls(**known, loops=loops)


def append_record(log: str, record: dict) -> None:
    """Append one JSON line atomically; failures are the caller's to ignore."""
    line = (json.dumps(record, sort_keys=True, default=str) + "\n").encode("utf-8", "replace")
    parent = os.path.dirname(log)
    if parent:
        os.makedirs(parent, exist_ok=True)
    try:
        if os.path.getsize(log) > MAX_LOG_BYTES:
            os.replace(log, log + ".1")
    except OSError:
        pass
    fd = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, line)
    finally:
        os.close(fd)


def make_record(decisions: list[SourceDecision], *, mode: str, compiler: str,
                output: str | None, returncode: int | None, argv: list[str]) -> dict:
    return {
        "time": time.time(),
        "build": os.environ.get("AUTOTUNE_BUILD_ID", ""),
        "pid": os.getpid(),
        "cwd": os.getcwd(),
        "mode": mode,
        "compiler": compiler,
        "output": output,
        "returncode": returncode,
        "argv": argv,
        "sources": [d.to_dict() for d in decisions],
    }


def read_log(log: str) -> list[dict]:
    """Every readable record, oldest first (a torn or foreign line is skipped)."""
    out = []
    for path in (log + ".1", log):
        try:
            with open(path, encoding="utf-8", errors="replace") as fh:
                for line in fh:
                    try:
                        rec = json.loads(line)
                    except ValueError:
                        continue
                    if isinstance(rec, dict) and isinstance(rec.get("sources"), list):
                        out.append(rec)
        except OSError:
            continue
    out.sort(key=lambda r: float(r.get("time") or 0.0))
    return out


def last_build(records: list[dict], gap_s: float = DEFAULT_GAP_S) -> list[dict]:
    """The newest group of records: same build id, else no more than ``gap_s`` apart."""
    if not records:
        return []
    last = records[-1]
    if last.get("build"):
        return [r for r in records if r.get("build") == last["build"]]
    group = [last]
    for rec in reversed(records[:-1]):
        if rec.get("build"):
            break
        if float(group[-1]["time"]) - float(rec["time"]) > gap_s:
            break
        group.append(rec)
    group.reverse()
    return group


def latest_per_source(records: list[dict]) -> list[dict]:
    """One row per (source, output): a file compiled twice in a build counts once, newest."""
    seen: dict[tuple[str, str, str], dict] = {}
    for rec in records:
        for src in rec["sources"]:
            key = (rec.get("cwd", ""), src.get("path") or src.get("source", ""),
                   str(rec.get("output")))
            seen[key] = {**src, "output": rec.get("output"), "time": rec.get("time"),
                         "mode": rec.get("mode"), "returncode": rec.get("returncode"),
                         "cwd": rec.get("cwd")}
    return sorted(seen.values(), key=lambda s: (s.get("path") or s.get("source", ""),
                                                str(s.get("output"))))

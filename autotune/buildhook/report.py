"""The decision log: one JSON line per C source the wrapper saw compiled.

Each compile is its own process (many at once under ``make -j``), so the log
is append-only and each record is written with one ``write`` on an
``O_APPEND`` descriptor: lines from concurrent compiles never interleave and
no lock is taken. ``autotune report-build`` groups the newest records into
"the last build": records sharing ``$AUTOTUNE_BUILD_ID``, or else records no
more than a gap apart in time.

The classes are plain (no ``dataclasses``) and the line is encoded without
the ``json`` module: both imports cost more than the rest of a warm compile's
Python work (see docs/buildhook.md, "Cost"). Reading uses ``json``.
"""

from __future__ import annotations

import os
import time

MAX_LOG_BYTES = 8 * 1024 * 1024  # then the log is renamed to .1 and restarted
DEFAULT_GAP_S = 120.0


class LoopDecision:
    """What was compiled for one loop: ``used`` is "tuned" or "original"."""

    FIELDS = ("loop_id", "line", "used", "variant", "reason", "function")

    def __init__(
        self,
        loop_id: str,
        line: int,
        used: str,
        variant: str = "baseline",
        reason: str = "",
        function: str = "",
    ) -> None:
        self.loop_id, self.line, self.used = loop_id, line, used
        self.variant, self.reason, self.function = variant, reason, function

    def to_dict(self) -> dict:
        return {k: getattr(self, k) for k in self.FIELDS}

    def __repr__(self) -> str:
        return f"LoopDecision({self.to_dict()!r})"


class SourceDecision:
    """What the wrapper compiled for one C source, and why."""

    FIELDS = (
        "source",
        "path",
        "used",
        "reason",
        "source_hash",
        "flags_key",
        "machine",
        "cached",
        "warning",
        "served",
        "headers",
    )

    def __init__(
        self,
        source: str,
        path: str = "",
        used: str = "original",
        reason: str = "",
        loops: list[LoopDecision] | None = None,
        source_hash: str = "",
        flags_key: str = "",
        machine: str = "",
        cached: bool = False,
        warning: bool = False,
        served: bool = False,
        headers: list | None = None,
    ) -> None:
        self.source = source  # as written on the command line
        self.path = path  # absolute
        self.used = used  # "tuned" | "original"
        self.reason = reason
        self.loops = list(loops or [])
        self.source_hash = source_hash
        self.flags_key = flags_key
        self.machine = machine
        self.cached = cached  # decided from the decision cache (no parse)
        self.warning = warning  # the reason is a failure inside autotune
        self.served = served  # decided by the resident process (``server = true``)
        # the user's headers the decision read, as ``cache.header_manifest`` lists them
        self.headers = list(headers or [])
        # decided for this build only (a tune held back for the machine's load): not kept
        # for the next build, which tries again
        self.for_now = False

    def to_dict(self) -> dict:
        d = {k: getattr(self, k) for k in self.FIELDS}
        d["loops"] = [ld.to_dict() for ld in self.loops]
        return d

    @classmethod
    def from_dict(cls, d: dict) -> SourceDecision:
        loops = [
            LoopDecision(**{k: v for k, v in ld.items() if k in LoopDecision.FIELDS})
            for ld in d.get("loops", [])
        ]
        return cls(**{k: v for k, v in d.items() if k in cls.FIELDS}, loops=loops)

    def __repr__(self) -> str:
        return f"SourceDecision({self.to_dict()!r})"


_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _json_str(s: str) -> str:
    out = []
    for c in s:
        o = ord(c)
        if c in _ESCAPES:
            out.append(_ESCAPES[c])
        elif o < 0x20 or 0xD800 <= o <= 0xDFFF:  # control, or a surrogateescape'd byte
            out.append(f"\\u{o:04x}")
        else:
            out.append(c)
    return '"' + "".join(out) + '"'


def to_json(obj: object) -> str:
    """JSON text of dicts, lists, strings, numbers, booleans and None."""
    if obj is None:
        return "null"
    if obj is True:
        return "true"
    if obj is False:
        return "false"
    if isinstance(obj, str):
        return _json_str(obj)
    if isinstance(obj, int):
        return str(obj)
    if isinstance(obj, float):
        return repr(obj) if obj == obj and obj not in (float("inf"), float("-inf")) else "null"
    if isinstance(obj, dict):
        return "{" + ", ".join(f"{_json_str(str(k))}: {to_json(v)}" for k, v in obj.items()) + "}"
    if isinstance(obj, (list, tuple)):
        return "[" + ", ".join(to_json(v) for v in obj) + "]"
    return _json_str(str(obj))


def append_record(log: str, record: dict) -> None:
    """Append one JSON line atomically; failures are the caller's to ignore."""
    line = (to_json(record) + "\n").encode("utf-8", "replace")
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


def make_record(
    decisions: list[SourceDecision],
    *,
    mode: str,
    compiler: str,
    output: str | None,
    returncode: int | None,
    argv: list[str],
    build: str = "",
) -> dict:
    return {
        "time": time.time(),
        # AUTOTUNE_BUILD_ID, else the make (or ninja) running the compile: two make runs
        # are two builds however close in time; a compile with neither: "parent-PID"
        "build": build or os.environ.get("AUTOTUNE_BUILD_ID", ""),
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
    import json

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
    """The newest group of records: the same build (one make run, or one
    ``$AUTOTUNE_BUILD_ID``); compiles run by hand (no build tool above them, "parent-PID"
    or no id) are grouped while no more than ``gap_s`` apart."""
    if not records:
        return []
    last = records[-1]
    build = last.get("build") or ""
    if build and not build.startswith("parent-"):
        return [r for r in records if r.get("build") == build]
    group = [last]
    for rec in reversed(records[:-1]):
        if (rec.get("build") or "") != build:
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
            key = (
                rec.get("cwd", ""),
                src.get("path") or src.get("source", ""),
                str(rec.get("output")),
            )
            seen[key] = {
                **src,
                "output": rec.get("output"),
                "time": rec.get("time"),
                "mode": rec.get("mode"),
                "returncode": rec.get("returncode"),
                "cwd": rec.get("cwd"),
            }
    return sorted(
        seen.values(), key=lambda s: (s.get("path") or s.get("source", ""), str(s.get("output")))
    )

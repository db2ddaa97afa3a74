"""Helpers for the variant tests: hand-made loop records (independent of the front
end's analysis), and building/running C programs with gcc -fopenmp."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from autotune.frontend.records import Clauses, Directive, LoopRecord

HAVE_GCC = shutil.which("gcc") is not None
needs_gcc = pytest.mark.skipif(not HAVE_GCC, reason="gcc not installed")

_PRAGMA = re.compile(r"^\s*#\s*pragma\s+omp\s+(.*)$")


def _logical(lines: list[str], i: int) -> tuple[str, int]:
    """Pragma text starting at index i joined over continuations, and the next index."""
    text = lines[i]
    while text.rstrip().endswith("\\"):
        i += 1
        text = text.rstrip()[:-1] + " " + lines[i]
    return " ".join(text.split()), i + 1


def records_for(path: Path, trip_count: int | None = 1000) -> list[LoopRecord]:
    """One LoopRecord per worksharing pragma of ``path``, found by text (test scaffolding).

    The worksharing pragma is any ``omp ... for``; its loop is the next line
    starting with ``for``; the owning parallel directive is the pragma itself
    (combined) or the nearest preceding ``omp parallel`` without ``for``.
    """
    lines = path.read_text(errors="surrogateescape").split("\n")
    out: list[LoopRecord] = []
    last_parallel: Directive | None = None
    i = 0
    while i < len(lines):
        m = _PRAGMA.match(lines[i])
        if not m:
            i += 1
            continue
        line = i + 1
        text, i = _logical(lines, i)
        text = text.split("#", 1)[1].strip().removeprefix("pragma").strip()
        words = text.split()
        nowait = "nowait" in words
        if "for" in words:
            kind = "parallel for" if words[1] == "parallel" else "for"
            d = Directive(text, kind, str(path), line, Clauses(nowait=nowait))
            sched = re.search(r"schedule\s*\(\s*(\w+)\s*(?:,\s*([^)]+))?\)", text)
            if sched:
                d.clauses.schedule, d.clauses.chunk = sched.group(1), sched.group(2)
            j = i
            while not lines[j].strip().startswith("for"):
                j += 1
            col = lines[j].index("for") + 1
            out.append(
                LoopRecord(
                    id=f"{path}:{j + 1}",
                    file=str(path),
                    line=j + 1,
                    column=col,
                    function="main",
                    directive=d,
                    parallel=d if kind == "parallel for" else last_parallel,
                    trip_count=trip_count,
                )
            )
        elif words[1] == "parallel":
            last_parallel = Directive(text, "parallel", str(path), line)
    return out


def build(tmp: Path, text: str, name: str, flags: tuple[str, ...] = ()) -> Path:
    """Compile ``text`` as ``tmp/name.c`` with gcc -O2 -fopenmp; fail the test on errors."""
    src = tmp / f"{name}.c"
    src.write_text(text)
    exe = tmp / name
    proc = subprocess.run(
        ["gcc", "-O2", "-fopenmp", *flags, "-o", str(exe), str(src), "-lm"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    return exe


def run(exe: Path, timing: Path | None = None, **env: str) -> str:
    """Run ``exe`` (2 threads unless told), optionally with the timing side channel."""
    e = dict(os.environ)
    e.pop("AUTOTUNE_TIMING_FILE", None)
    e.pop("OMP_SCHEDULE", None)
    e.pop("AUTOTUNE_NUM_THREADS", None)
    e.setdefault("OMP_NUM_THREADS", "2")
    if timing is not None:
        e["AUTOTUNE_TIMING_FILE"] = str(timing)
    e.update(env)
    proc = subprocess.run(
        [str(exe)], capture_output=True, text=True, env=e, timeout=60, check=False
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def timing_lines(path: Path) -> list[tuple[str, float, float, int]]:
    """Parsed side-channel lines: (loop_id, wall_s, cpu_s, executions)."""
    out = []
    for ln in path.read_text().splitlines():
        tag, loop_id, wall, cpu, execs = ln.split("\t")
        assert tag == "autotune-timing"
        out.append((loop_id, float(wall), float(cpu), int(execs)))
    return out


def changed_lines(a: str, b: str) -> list[int]:
    """1-based numbers of lines that differ (both texts must have as many lines)."""
    la, lb = a.split("\n"), b.split("\n")
    assert len(la) == len(lb), "line count changed"
    return [i + 1 for i, (x, y) in enumerate(zip(la, lb, strict=True)) if x != y]


_BEGIN = re.compile(
    r"\{ struct autotune_mark_ autotune_mark\d+_ = \{0\.0, 0\.0\};\n"
    r"(?:.*\n)*?#line \d+ \"[^\"]*\"\n"
)
_END = re.compile(
    r"\n(?:if \(autotune_tid_\(\) == 0\) )?autotune_\w+\(\d+, &autotune_mark\d+_\); \}\n"
    r"#line \d+ \"[^\"]*\"\n"
)


def strip_instrumentation(text: str, file: str) -> str:
    """Undo the instrumentation text edits (prelude, epilogue, begin/end blocks)."""
    marker = f'#line 1 "{file}"\n'
    assert marker in text
    text = text.split(marker, 1)[1]
    text = text.split('#line 1 "<autotune instrumentation>"', 1)[0]
    return _END.sub("", _BEGIN.sub("", text))

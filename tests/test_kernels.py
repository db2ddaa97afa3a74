"""The kernels are the ground truth for measurement: their checksums must not
depend on the thread count or the schedule, or "verified" variants mean
nothing. Also keeps the expected-loop JSON files in step with the sources."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
KERNEL_DIR = ROOT / "kernels"
KERNELS = sorted(p.name for p in KERNEL_DIR.glob("*.c"))
C_DIR = ROOT / "tests" / "data" / "c"
REL_TOL = 1e-9

CHECKSUM = re.compile(r"^checksum: (\S+)$")
WORKSHARING = re.compile(r"^(\s*#\s*pragma\s+omp\s+(?:parallel\s+)?for\b)(.*)$")
SIZE_MACRO = re.compile(r"^#ifndef (\w+)\n#define \1 \S+\n#endif", re.M)

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")


# Fewer repetitions for the schedule sweep: the result of every repetition
# goes into the checksum, so the property is the same, at a fraction of the time.
SHORT = ["-DREPS=3", "-DTSTEPS=5"]


def _compile(src: Path, exe: Path, defines: list[str] = ()) -> str:
    argv = ["gcc", "-O2", "-fopenmp", "-Wall", "-Wextra", *defines, "-o", str(exe), str(src), "-lm"]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stderr


def _checksum(exe: Path, threads: int, schedule: str | None = None) -> float:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OMP_")}
    env["OMP_NUM_THREADS"] = str(threads)
    if schedule is not None:
        env["OMP_SCHEDULE"] = schedule
    proc = subprocess.run([str(exe)], capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == 1, f"expected one stdout line, got {lines!r}"
    m = CHECKSUM.match(lines[0])
    assert m, lines[0]
    return float(m.group(1))


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= REL_TOL * max(abs(a), abs(b), 1e-300)


def runtime_schedule(source: str) -> tuple[str, int]:
    """Source with every worksharing loop's schedule replaced by schedule(runtime)."""
    out, changed = [], 0
    for line in source.splitlines():
        m = WORKSHARING.match(line)
        if m:
            rest = " ".join(re.sub(r"\bschedule\s*\([^)]*\)", "", m.group(2)).split())
            line = (
                f"{m.group(1)} {rest} schedule(runtime)"
                if rest
                else (f"{m.group(1)} schedule(runtime)")
            )
            changed += 1
        out.append(line)
    return "\n".join(out) + "\n", changed


@pytest.fixture(scope="module")
def baseline(tmp_path_factory):
    """Compile each kernel once; cache (exe, one-thread checksum)."""
    cache: dict[str, tuple[Path, float]] = {}
    tmp = tmp_path_factory.mktemp("kernels")

    def get(name: str) -> tuple[Path, float]:
        if name not in cache:
            exe = tmp / Path(name).stem
            warnings = _compile(KERNEL_DIR / name, exe)
            assert "warning" not in warnings, warnings
            cache[name] = (exe, _checksum(exe, 1))
        return cache[name]

    return get


def test_kernel_set_is_complete():
    required = {
        "triad.c",
        "dot.c",
        "compute.c",
        "matmul.c",
        "stencil2d.c",
        "triangular.c",
        "spmv_csr.c",
        "mandelbrot.c",
        "tiny.c",
        "region2.c",
        "sections.c",
        "mergesort_task.c",
    }
    assert required <= set(KERNELS)


@pytest.mark.parametrize("name", KERNELS)
def test_kernel_has_size_macro_and_pragma(name):
    text = (KERNEL_DIR / name).read_text()
    assert SIZE_MACRO.search(text), "no #ifndef/#define size macro"
    assert re.search(r"^\s*#\s*pragma\s+omp\s", text, re.M), "no OpenMP pragma"
    assert re.search(r"\bint\s+main\s*\(", text)
    assert "rand()" not in text, "use a fixed generator, not rand()"


@pytest.mark.parametrize("name", KERNELS)
def test_kernel_checksum_same_for_1_and_2_threads(baseline, name):
    exe, one = baseline(name)
    two = _checksum(exe, 2)
    assert _close(one, two), f"{name}: 1 thread {one!r} vs 2 threads {two!r}"


@pytest.mark.parametrize("name", KERNELS)
def test_kernel_checksum_independent_of_schedule(tmp_path, name):
    original = KERNEL_DIR / name
    _compile(original, tmp_path / "original", SHORT)
    one = _checksum(tmp_path / "original", 1)
    src, changed = runtime_schedule(original.read_text())
    if changed == 0:  # sections/tasks only: still check an odd thread count
        assert _close(one, _checksum(tmp_path / "original", 3))
        return
    variant = tmp_path / name
    variant.write_text(src)
    exe = tmp_path / "variant"
    _compile(variant, exe, SHORT)
    for threads, schedule in ((2, "dynamic,3"), (3, "guided")):
        got = _checksum(exe, threads, schedule)
        assert _close(one, got), f"{name}: {schedule} x{threads} gave {got!r}, not {one!r}"


def test_runtime_schedule_rewrite_replaces_existing_clause():
    src = (
        "#pragma omp parallel for schedule(static, 4) private(j)\n"
        "#pragma omp parallel\n#pragma omp for nowait\n#pragma omp parallel sections\n"
    )
    out, changed = runtime_schedule(src)
    assert changed == 2
    lines = out.splitlines()
    assert lines[0] == "#pragma omp parallel for private(j) schedule(runtime)"
    assert lines[1] == "#pragma omp parallel"
    assert lines[2] == "#pragma omp for nowait schedule(runtime)"
    assert lines[3] == "#pragma omp parallel sections"


def _pragma_lines(path: Path, loops: bool) -> list[int]:
    """1-based lines of omp pragmas: the worksharing-loop ones, or all others."""
    found = []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if re.match(r"^\s*#\s*pragma\s+omp\s", line):
            if bool(WORKSHARING.match(line)) == loops:
                found.append(n)
    return found


@pytest.mark.parametrize(
    "json_path, directory",
    [(ROOT / "tests/data/kernels_expected.json", KERNEL_DIR), (C_DIR / "expected.json", C_DIR)],
    ids=["kernels", "third-party-style"],
)
def test_expected_json_matches_sources(json_path, directory):
    data = json.loads(json_path.read_text())
    files = data["files"]
    assert set(files) == {p.name for p in directory.glob("*.c")}
    for name, info in files.items():
        path = directory / name
        lines = path.read_text().splitlines()
        got = [rec["pragma_line"] for rec in info["loops"]]
        if name == "syntax_error.c":
            assert got == []
            assert "SYNTAX ERROR" in lines[info["syntax_error_line"] - 1]
            continue
        assert got == _pragma_lines(path, loops=True), name
        others = [d["pragma_line"] for d in info["other_directives"]]
        assert others == _pragma_lines(path, loops=False), name
        for rec in info["loops"]:
            assert re.match(r"^\s*for\s*\(", lines[rec["line"] - 1]), (name, rec["line"])
            assert rec["directive"] in ("parallel for", "for")
            if rec["trip_count"] is not None and rec["iterations"] is not None:
                assert rec["iterations"] >= rec["trip_count"] or rec["trip_count"] == 0

"""Kernels that take their arrays as parameters from callers the proof cannot see (a
library compiled on its own, buffers from a pool of ``posix_memalign`` blocks): each
varies behind a run-time test that the address ranges it reaches through its pointers do
not overlap, as LLVM Polly's alias checks do. The test is compiled and evaluated on
disjoint, touching and overlapping pointers; the variants, as the tuner writes them, print
the original's output with the pointers apart and with one buffer passed twice. Rows
reached through a table of row pointers have no range to test and are kept."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

import autotune
from autotune.cli.main import main
from autotune.textfile import read_source
from autotune.variants.apply import apply_variants
from autotune.variants.space import Variant

DATA = Path(__file__).parent / "data" / "c" / "proof" / "overlap"
pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")

# loop line -> (the kernel's parameters, the pointers its test names)
GUARDED = {
    11: ("double *y, const double *x, double alpha, int n", {"x", "y"}),
    18: ("double *out, const double *in, int n", {"in", "out"}),
    26: ("double *m, const double *f, int rows, int cols", {"f", "m"}),
    34: ("double (*c)[64], double (*a)[64], double (*b)[64], int rows", {"a", "b", "c"}),
    51: ("double *out, const double *in, size_t n", {"in", "out"}),
    60: ("double *out, const int *count, int n", {"count", "out"}),
    68: ("double *out, const double *in, const double *w, int n", {"in", "out", "w"}),
}
# calls of each test: (arguments over one buffer ``buf`` of 8192 doubles, expected value)
CALLS = {
    11: [
        ("buf, buf + 100, 0.5, 100", 1),
        ("buf + 100, buf, 0.5, 100", 1),
        ("buf, buf + 99, 0.5, 100", 0),
        ("buf, buf, 0.5, 100", 1),  # in place: each element at its own iteration
        ("buf + 1, buf, 0.5, 100", 0),
    ],
    # out[1 .. n-2] against in[0 .. n-1]: touching at either end is apart
    18: [
        ("buf + 100, buf, 100", 1),
        ("buf, buf + 99, 100", 1),
        ("buf + 98, buf, 100", 0),
        ("buf, buf + 98, 100", 0),
        ("buf, buf, 100", 0),  # in place, each out[i] would read a neighbour's new value
    ],
    # m[0 .. rows*cols - 1] against f[0 .. rows - 1]
    26: [
        ("buf + 10, buf, 10, 4", 1),
        ("buf, buf + 40, 10, 4", 1),
        ("buf, buf + 39, 10, 4", 0),
        ("buf + 9, buf, 10, 4", 0),
    ],
    34: [
        ("(void *)buf, (void *)(buf + 640), (void *)(buf + 1280), 10", 1),
        ("(void *)buf, (void *)(buf + 639), (void *)(buf + 1280), 10", 0),
        ("(void *)(buf + 1280), (void *)buf, (void *)(buf + 1919), 10", 0),
        ("(void *)buf, (void *)buf, (void *)buf, 10", 1),  # c = a + b in place
        ("(void *)buf, (void *)buf, (void *)(buf + 64), 10", 0),
    ],
    # out[0 .. n-2] against in[0 .. n-1]
    51: [("buf + 100, buf, 100", 1), ("buf, buf + 99, 100", 1), ("buf, buf + 98, 100", 0)],
    # out's 800 bytes against count's 400: compared in bytes, element sizes apart; one
    # address for both is no update in place (other element sizes)
    60: [
        ("buf, (const int *)buf, 100", 0),
        ("buf, (const int *)(buf + 100), 100", 1),
        ("buf + 50, (const int *)buf, 100", 1),
        ("buf, (const int *)(buf + 99), 100", 0),
        ("buf + 49, (const int *)buf, 100", 0),
    ],
    # out may also be w (each out[i] reads its own w[i] first), never in
    68: [
        ("buf, buf + 200, buf + 400, 100", 1),
        ("buf, buf + 200, buf, 100", 1),
        ("buf, buf, buf + 400, 100", 0),
        ("buf + 1, buf + 200, buf, 100", 0),
    ],
}


def _loops(capsys, *extra: str) -> dict[int, dict]:
    assert main(["analyze", str(DATA / "kernels.c"), "--json", *extra]) == 0
    return {lp["line"]: lp for lp in json.loads(capsys.readouterr().out)["loops"]}


def test_kernels_of_a_library_vary_behind_an_overlap_test(env, capsys):
    loops = _loops(capsys)
    for line, (_params, names) in GUARDED.items():
        lp = loops[line]
        assert lp["kept"] == {}, (line, lp["kept"])
        assert "__INTPTR_TYPE__" in lp["guard"], (line, lp["guard"])
        said = " ".join(w for w in lp["warnings"] if "does not overlap" in w)
        assert all(f" {name} " in f" {said.split(' does not')[0]} " for name in names), said
    rows = loops[43]  # rows through a table of row pointers: no range of addresses to test
    assert set(rows["kept"]) == {"schedule", "threads"} and rows["guard"] == ""


def test_the_overlap_test_holds_exactly_where_the_ranges_are_apart(env, capsys, tmp_path):
    """Each loop's test, compiled as a function of its kernel's parameters, is true for
    pointers whose reaches are apart (touching included), and for one pointer passed
    twice where each iteration then touches its own elements alone (``axpy(y, y)``), and
    false where one element of them is shared otherwise."""
    loops = _loops(capsys)
    lines = ["#include <stddef.h>", "#include <stdio.h>", "static double buf[8192];"]
    for line, (params, _names) in GUARDED.items():
        lines.append(f"static int apart_{line}({params}) {{ return {loops[line]['guard']}; }}")
    lines.append("int main(void) {")
    for line, calls in CALLS.items():
        for args, _want in calls:
            lines.append(f'    printf("%d\\n", apart_{line}({args}));')
    lines.append("    return 0;\n}")
    src = tmp_path / "apart.c"
    src.write_text("\n".join(lines) + "\n")
    exe = tmp_path / "apart"
    subprocess.run(["gcc", "-O2", "-Wall", "-Werror", str(src), "-o", str(exe)], check=True)
    got = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout.split()
    want = [str(w) for calls in CALLS.values() for _args, w in calls]
    assert got == want


def _build_and_run(kernels: Path, work: Path, name: str, threads: str) -> list[str]:
    exe = work / name
    cmd = ["gcc", "-O2", "-fopenmp", str(kernels), str(DATA / "driver.c"), "-o", str(exe)]
    subprocess.run(cmd, check=True)
    env = {**os.environ, "OMP_NUM_THREADS": threads}
    return [
        subprocess.run(
            [str(exe), *args], capture_output=True, text=True, env=env, check=True
        ).stdout
        for args in (["4096"], ["4096", "inplace"])
    ]


@pytest.mark.slow
def test_their_variants_print_the_original_output_apart_and_in_place(capsys, tmp_path):
    """With the driver and a profile run the kernels are sized; every loop's variants, as
    the tuner writes them (behind their tests), print what the original prints, with the
    pointers apart (the variant runs) and with one buffer passed twice (the test fails and
    the loop runs as written)."""
    session = autotune.Session(
        db=tmp_path / "s.db", args=["4096"], extra_sources=[str(DATA / "driver.c")]
    )
    records = {r.line: r for r in session.analyze(DATA / "kernels.c").loops}
    assert all(records[line].tunable and not records[line].kept for line in GUARDED)
    source = read_source(DATA / "kernels.c")
    want = {t: _build_and_run(DATA / "kernels.c", tmp_path, f"orig{t}", t) for t in ("2", "3")}
    for schedule, chunk, threads in (("dynamic", 1, 4), ("guided", 3, 3), ("static", 1, 2)):
        chosen = [(records[line], Variant(schedule, chunk, threads)) for line in GUARDED]
        text = apply_variants(source, chosen)
        assert text.count("__INTPTR_TYPE__") >= len(GUARDED)
        path = tmp_path / f"kernels_{schedule}.c"
        path.write_text(text)
        for t, outputs in want.items():
            got = _build_and_run(path, tmp_path, f"{schedule}{t}", t)
            assert got == outputs, (schedule, t)

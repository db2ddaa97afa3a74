"""Rows of compressed layouts (``csr_rows.c``, in the style of sparse solvers and graph
codes): iteration ``r`` writes the entries in ``[rowptr[r], rowptr[r + 1])``, apart from
every other row's only while the offsets do not decrease, a fact of the data. The loops
vary behind a test that checks the offsets in the loop's order at the directive. The
test is compiled and evaluated on sorted, equal and decreasing offsets; the variants, as
the tuner writes them, print the original's output on sorted offsets and on offsets out
of order (where the test fails and the loop runs as written). Inside a region every
thread runs the test, and it is made only where nothing else the region runs stores to
the offsets. Rows that share their end entry, a write one entry on, offsets the loop
itself stores to, and offsets the region stores to after the loop are kept."""

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

SRC = Path(__file__).parent / "data" / "c" / "proof" / "csr_rows.c"
pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")

# loop line -> (its function's parameters, the offsets its warning names)
CHECKED = {
    20: ("csr_t *m", "m->rowptr[r] <= m->rowptr[r + 1] at every r"),
    28: ("int n, const int *rowstr", "rowstr[j] <= rowstr[j + 1] at every j"),
    36: ("long nv, const long *offs", "offs[v] <= offs[v + 1] at every v"),
    74: ("int n, const int *rowstr", "rowstr[j] <= rowstr[j + 1] at every j"),  # a region's
}
IN_REGION = {74}  # its thread count is its region's: only the schedule varies
KEPT = {
    45: "writes the same element of val from different iterations",  # k <= rowptr[r + 1]
    53: "line 55 (val[k]) and line 55 (val[k + 1])",  # the next row's first entry
    61: "a dependence carried by the loop on rowptr",  # the loop stores to the offsets
    93: "writes the same element of val from different iterations",  # the region moves them
}
CSR = """typedef struct {
    int nrows;
    int *rowptr;
    int *col;
    double *val;
} csr_t;"""


def _loops(capsys) -> dict[int, dict]:
    assert main(["analyze", str(SRC), "--json"]) == 0
    return {lp["line"]: lp for lp in json.loads(capsys.readouterr().out)["loops"]}


def test_rows_vary_behind_a_check_of_their_offsets_and_the_traps_are_kept(env, capsys):
    loops = _loops(capsys)
    for line, (_params, words) in CHECKED.items():
        lp = loops[line]
        kept = {"threads"} if line in IN_REGION else set()
        assert set(lp["kept"]) == kept and "__autotune_sorted" in lp["guard"], (line, lp)
        said = " ".join(w for w in lp["warnings"] if w.startswith("proven only where"))
        assert words in said and "the offsets in the loop's order" in said, (line, said)
    for line, words in KEPT.items():
        lp = loops[line]
        assert set(lp["kept"]) == {"schedule", "threads"} and lp["guard"] == "", line
        assert words in " ".join(lp["kept"].values()), (line, lp["kept"])


def test_the_check_holds_exactly_where_the_offsets_do_not_decrease(env, capsys, tmp_path):
    loops = _loops(capsys)
    lines = ["#include <stdio.h>", CSR]
    for line, (params, _words) in CHECKED.items():
        lines.append(f"static int ok_{line}({params}) {{ return {loops[line]['guard']}; }}")
    lines += [
        "int main(void) {",
        "    int p[6] = {0, 3, 3, 7, 9, 12};",  # sorted, one empty row
        "    long q[6] = {0, 3, 3, 7, 9, 12};",
        "    csr_t m = {5, p, 0, 0};",
        '    printf("%d %d %d %d ", ok_20(&m), ok_28(4, p), ok_36(5, q), ok_74(5, p));',
        "    p[3] = 2; q[3] = 2;",  # row 2 ends before it starts: rows 2 and 3 overlap
        '    printf("%d %d %d %d ", ok_20(&m), ok_28(4, p), ok_36(5, q), ok_74(5, p));',
        "    m.nrows = 2; q[3] = 7;",  # rows past the loop's are not its business
        '    printf("%d %d %d %d ", ok_20(&m), ok_28(1, p), ok_36(2, q), ok_74(2, p));',
        "    p[1] = 5;",  # the first row ends past the second's end
        '    printf("%d %d %d\\n", ok_20(&m), ok_28(1, p), ok_74(2, p));',
        "    return 0;",
        "}",
    ]
    test = tmp_path / "check.c"
    test.write_text("\n".join(lines) + "\n")
    exe = tmp_path / "check"
    subprocess.run(["gcc", "-O1", str(test), "-o", str(exe)], check=True)
    got = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout
    assert got.split() == "1 1 1 1 0 0 0 0 1 1 1 1 0 1 0".split()


@pytest.mark.slow
def test_variants_print_the_original_output_on_sorted_and_shuffled_offsets(tmp_path):
    """Sized by a profile run, each checked loop's variants, on 3 threads where the
    program's team is one (the loops as written race on offsets out of order), print what
    the original prints, with sorted offsets and with offsets out of order."""
    session = autotune.Session(db=tmp_path / "s.db", args=["3000", "0"])
    records = [r for r in session.analyze(SRC).loops if r.line in CHECKED]
    assert len(records) == 4 and all(r.tunable and r.guard for r in records)
    assert all(set(r.kept) == ({"threads"} if r.line in IN_REGION else set()) for r in records)

    def output(src: Path, shuffle: str) -> str:
        exe = tmp_path / f"{src.stem}.out"
        subprocess.run(["gcc", "-O2", "-fopenmp", str(src), "-o", str(exe), "-lm"], check=True)
        env = {**os.environ, "OMP_NUM_THREADS": "1"}
        run = [str(exe), "3000", shuffle]
        return subprocess.run(run, capture_output=True, text=True, env=env, check=True).stdout

    want = {shuffle: output(SRC, shuffle) for shuffle in ("0", "1")}
    assert want["0"] != want["1"]
    source = read_source(SRC)
    for schedule, chunk in (("dynamic", 1), ("guided", 3), ("static", 1)):
        picked = [
            (r, Variant(schedule, chunk, None if r.line in IN_REGION else 3)) for r in records
        ]
        text = apply_variants(source, picked)
        assert text.count("__autotune_sorted = 0") >= 4
        variant = tmp_path / f"csr_rows_{schedule}.c"
        variant.write_text(text)
        for shuffle, expected in want.items():
            assert output(variant, shuffle) == expected, (schedule, shuffle)

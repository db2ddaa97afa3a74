"""Link-cell kernels in the style of CoMD and miniMD (``cell_lists.c``): each box's atoms
sit in a slab of a fixed stride, and the box's count is read from memory. The slabs are
apart only while every count is at most the stride, a fact of the data: the loops vary
behind a test that scans the counts at the directive. The test is compiled and evaluated
on counts inside and above the stride; the variants, as the tuner writes them, print the
original's output with counts of both kinds, and the profile run says where the test
held. A count read one box ahead, one read only on some paths, and counts the loop
itself stores to are kept."""

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

SRC = Path(__file__).parent / "data" / "c" / "proof" / "cell_lists.c"
NESTED = SRC.with_name("comd_nested.c")
pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")

# loop line -> (its function's parameters, what its warning names)
SCANNED = {
    22: ("Cells *s", "(16 >= (max s->nAtoms[iBox]) || 1 >= (s->nLocalBoxes))"),
    35: ("int nbins, const int *bincount, int per_bin", "(per_bin) >= (max bincount[b])"),
}
KEPT = {
    46: "dependence carried by the loop",  # nAtoms[iBox + 1]: no scan
    56: "dependence carried by the loop",  # the count read under an if
    69: "reads the size max s->nAtoms[iBox] from memory the loop may write",
}
CELLS = """typedef struct {
    int nLocalBoxes;
    int *nAtoms;
    double (*p)[3];
    double (*f)[3];
} Cells;"""


def _loops(capsys, *extra: str) -> dict[int, dict]:
    assert main(["analyze", str(SRC), "--json", *extra]) == 0
    return {lp["line"]: lp for lp in json.loads(capsys.readouterr().out)["loops"]}


def test_cell_loops_vary_behind_a_scan_of_their_counts_and_the_rest_are_kept(env, capsys):
    loops = _loops(capsys)
    for line, (_params, words) in SCANNED.items():
        lp = loops[line]
        assert lp["kept"] == {} and "__autotune_max" in lp["guard"], (line, lp)
        said = " ".join(w for w in lp["warnings"] if w.startswith("proven only where"))
        assert words in said and "scanned at its start" in said, (line, said)
    for line, words in KEPT.items():
        lp = loops[line]
        assert set(lp["kept"]) == {"schedule", "threads"} and lp["guard"] == "", line
        assert words in " ".join(lp["kept"].values()), (line, lp["kept"])


def test_the_scan_holds_exactly_where_every_count_fits_its_slab(env, capsys, tmp_path):
    loops = _loops(capsys)
    lines = ["#include <stdio.h>", CELLS]
    for line, (params, _words) in SCANNED.items():
        lines.append(f"static int fits_{line}({params}) {{ return {loops[line]['guard']}; }}")
    lines += [
        "int main(void) {",
        "    int counts[6] = {3, 16, 0, 7, 16, 1};",
        "    Cells s = {6, counts, 0, 0};",
        '    printf("%d ", fits_22(&s));',  # every count at most 16
        "    counts[3] = 17;",
        '    printf("%d ", fits_22(&s));',  # one above
        "    s.nLocalBoxes = 3;",
        '    printf("%d ", fits_22(&s));',  # not among the loop's boxes
        "    s.nLocalBoxes = 1; counts[0] = 40;",
        '    printf("%d ", fits_22(&s));',  # one box: nothing to share out
        '    printf("%d ", fits_35(6, counts, 40));',  # a stride of 40 holds 40
        '    printf("%d ", fits_35(6, counts, 39));',
        '    printf("%d\\n", fits_35(0, counts, 1));',  # no bins: the counts unread
        "    return 0;",
        "}",
    ]
    src = tmp_path / "fits.c"
    src.write_text("\n".join(lines) + "\n")
    exe = tmp_path / "fits"
    subprocess.run(["gcc", "-O2", "-Wall", "-Werror", str(src), "-o", str(exe)], check=True)
    got = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout
    assert got.split() == ["1", "0", "1", "1", "1", "0", "1"]


def _output(src: Path, work: Path, name: str, args: list[str], threads: int) -> str:
    exe = work / name
    if not exe.exists():
        subprocess.run(["gcc", "-O2", "-fopenmp", str(src), "-o", str(exe)], check=True)
    env = {**os.environ, "OMP_NUM_THREADS": str(threads)}
    done = subprocess.run([str(exe), *args], capture_output=True, text=True, env=env, check=True)
    return done.stdout


@pytest.mark.slow
def test_their_variants_print_the_original_output_with_counts_inside_and_above(tmp_path):
    """Counts up to the stride (FILL 17): the variants run, on 4 threads, and print what
    the original prints. Counts above it (FILL 20): the slabs overlap and the original
    races between threads, so both run on one thread, where the variants' test fails
    and the loops run as written."""
    session = autotune.Session(db=tmp_path / "s.db", args=["400", "17"])
    records = {r.line: r for r in session.analyze(SRC).loops}
    assert all(records[line].tunable and records[line].guard for line in SCANNED)
    source = read_source(SRC)
    inside, above = ["400", "17"], ["400", "20"]
    want_inside = _output(SRC, tmp_path, "orig", inside, 1)
    assert _output(SRC, tmp_path, "orig", inside, 4) == want_inside
    want_above = _output(SRC, tmp_path, "orig", above, 1)
    for schedule, chunk in (("dynamic", 1), ("static", 3)):
        chosen = [(records[line], Variant(schedule, chunk, 4)) for line in SCANNED]
        path = tmp_path / f"cells_{schedule}.c"
        path.write_text(apply_variants(source, chosen))
        assert "__autotune_max" in path.read_text()
        assert _output(path, tmp_path, schedule, inside, 4) == want_inside, schedule
        assert _output(path, tmp_path, schedule, above, 1) == want_above, schedule


def test_the_profile_run_says_where_the_scan_held(env, capsys):
    """With every count inside its slab the test held at the loops' one execution; with
    counts above it, the test failed there, and the loops are kept as written."""
    inside = _loops(capsys, "--args", "400 17")
    above = _loops(capsys, "--args", "400 20")
    failed = "its run-time test failed at all 1 execution(s) of the profile run"
    for line in SCANNED:
        assert inside[line]["tunable"] and inside[line]["kept"] == {}, line
        lp = above[line]
        assert not lp["tunable"] and failed in lp["reason"], (line, lp["reason"])


def test_counts_and_slabs_through_nested_members_vary_behind_the_scan(env, capsys):
    """CoMD's own spelling: counts in ``s->boxes->nAtoms``, slabs in ``s->atoms->p``,
    an offset stepped beside the atom counter. Both updates vary behind the scan."""
    assert main(["analyze", str(NESTED), "--json"]) == 0
    loops = {lp["line"]: lp for lp in json.loads(capsys.readouterr().out)["loops"]}
    for line in (32, 44):
        lp = loops[line]
        assert lp["kept"] == {} and "__autotune_max" in lp["guard"], (line, lp)
        said = " ".join(lp["warnings"])
        assert "16 >= (max s->boxes->nAtoms[iBox])" in said, (line, said)


@pytest.mark.slow
def test_nested_member_variants_are_verified_where_the_scan_holds_only(env, capsys):
    """Measured as a user would: with counts inside the slabs every variant prints the
    original's output; with counts above, the profile run finds the test failing and
    nothing is measured."""
    args = ["measure", str(NESTED), "--schedules", "dynamic", "--chunks", "1,7"]
    args += ["--threads", "1,3", "--repetitions", "1", "--quiet", "--json"]
    assert main([*args, "--args", "300 17"]) == 0
    loops = json.loads(capsys.readouterr().out)["loops"]
    assert len(loops) == 2
    for loop in loops:
        assert len(loop["variants"]) == 4 and {v["status"] for v in loop["variants"]} == {"ok"}
    assert main([*args, "--args", "300 20"]) != 0
    said = capsys.readouterr().err
    assert "its run-time test failed at all 1 execution(s) of the profile run" in said

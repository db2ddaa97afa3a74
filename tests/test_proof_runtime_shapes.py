"""Shapes sized at run time that the proof decides for every size, with no run-time test:
two halves of one allocation, a pointer set once to an object's start plus an offset,
blocks addressed by ``/`` and ``%`` of a run-time block size, tiles of a run-time width
clipped by ``MIN``. Run as a user would (``autotune analyze --args``); the variants, as
the tuner writes them, print the original's output at the measured size and at others.
Their traps (one element of overlap, an offset changed after the pointer was set, a
pointer moved before the loop, tiles wider than their step, a block's own slot) are
kept as written with the reason."""

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
from autotune.variants.errors import EmitError
from autotune.variants.space import Variant

DATA = Path(__file__).parent / "data" / "c" / "proof"
BOTH = {"schedule", "threads"}
pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")

SHAPES = {13: "scale_into", 21: "block_update", 31: "tiled_copy", 58: "main", 61: "main"}
TRAPS = {
    24: "dependence carried by the loop on v: line 25 (v[i]) and line 25 (overlap[i])",
    30: "dependence carried by the loop on v: line 31 (v[i + m]) and line 31 (later[i])",
    35: "dependence carried by the loop on v: line 36 (v[i]) and line 36 (p[i])",
    40: "dependence carried by the loop on v: line 41 (v[i]) and line 41 (q[i])",
    43: "writes the same element of v from different iterations (line 46: v[i])",
    50: "writes the same element of v from different iterations (line 52: v[blk])",
    55: "writes the same element of v from different iterations (line 57: v[off])",
}


def _analyze(name: str, args: str, capsys) -> dict[int, dict]:
    assert main(["analyze", str(DATA / name), "--args", args, "--json"]) == 0
    return {lp["line"]: lp for lp in json.loads(capsys.readouterr().out)["loops"]}


def test_run_time_shapes_are_proven_at_every_size(env, capsys):
    loops = _analyze("runtime_shapes.c", "300 16", capsys)
    assert {line: lp["function"] for line, lp in loops.items()} == SHAPES
    for line, lp in loops.items():
        assert lp["kept"] == {} and lp["tunable"], (line, lp["kept"])
        # no size the profile measured is part of the proof: no test before the variant
        assert lp["guard"] == "" and lp["proof_sizes"] == [], (line, lp["guard"])
    assert loops[31]["trip_count"] == 19  # ceil(300 / 16) tiles: the step was measured


# two pointers into one block at offsets the walk knows, but in a block it cannot tell
# from others of its allocation site: they vary behind a test of their address ranges,
# which these traps fail at every run: the profile run sees it fail, and keeps them
BEHIND_OVERLAP_TEST = (24, 30, 35, 40)


def test_their_traps_are_kept_with_the_reason(env, capsys):
    loops = _analyze("runtime_shapes_traps.c", "300 16", capsys)
    assert sorted(loops) == sorted(TRAPS)
    for line, words in TRAPS.items():
        lp = loops[line]
        if line in BEHIND_OVERLAP_TEST:
            said = " ".join(w for w in lp["warnings"] if "does not overlap" in w)
            assert "__INTPTR_TYPE__" in lp["guard"] and words in said, (line, lp)
            assert set(lp["kept"]) == BOTH and not lp["tunable"], (line, lp["kept"])
            failed = "its run-time test failed at all 1 execution(s) of the profile run"
            assert failed in lp["kept"]["schedule"], (line, lp["kept"])
            continue
        assert set(lp["kept"]) == BOTH and not lp["tunable"], (line, lp["kept"])
        assert words in lp["kept"]["schedule"], (line, lp["kept"])


@pytest.mark.slow
def test_the_profile_run_finds_their_overlap_tests_fail_at_other_sizes(tmp_path):
    """The compiled program evaluates each test where its variants would, at two sizes:
    it fails at every execution, so no variant is written (none could run)."""
    for args in (["300", "16"], ["97", "5"]):
        session = autotune.Session(db=tmp_path / "s.db", args=args)
        records = session.analyze(DATA / "runtime_shapes_traps.c", profile=True, formulas="")
        tested = [r for r in records.loops if r.line in BEHIND_OVERLAP_TEST]
        assert len(tested) == len(BEHIND_OVERLAP_TEST)
        for r in tested:
            assert "__INTPTR_TYPE__" in r.guard and not r.tunable, (args, r.line)
            assert "its run-time test failed at all" in r.reason, (args, r.line, r.reason)
        with pytest.raises(EmitError, match="loop is not tunable"):
            apply_variants(
                read_source(DATA / "runtime_shapes_traps.c"),
                [(tested[0], Variant("dynamic", 1, 4))],
            )


def _outputs(text: str, work: Path, name: str, runs: list[list[str]], threads: str) -> list[str]:
    src = work / f"{name}.c"
    src.write_text(text)
    exe = work / name
    subprocess.run(["gcc", "-O2", "-fopenmp", str(src), "-o", str(exe), "-lm"], check=True)
    env = {**os.environ, "OMP_NUM_THREADS": threads}
    return [
        subprocess.run([str(exe), *a], capture_output=True, text=True, env=env, check=True).stdout
        for a in runs
    ]


@pytest.mark.slow
def test_their_variants_print_the_original_output_at_other_sizes(tmp_path):
    """Proven for every size, so the variants carry no test: each one, applied as the
    tuner writes it, prints the original's output at sizes the profile never saw."""
    session = autotune.Session(db=tmp_path / "s.db", args=["300", "16"], ldflags=["-lm"])
    records = session.analyze(DATA / "runtime_shapes.c", profile=True, formulas="").loops
    assert len(records) == len(SHAPES) and all(r.tunable and not r.guard for r in records)
    source = read_source(DATA / "runtime_shapes.c")
    runs = [["300", "16"], ["97", "5"], ["1024", "33"], ["7", "64"]]
    expected = _outputs(source, tmp_path, "original", runs, "1")
    for k, variant in enumerate([Variant("dynamic", 3, 3), Variant("guided", 7, 4)]):
        tuned = apply_variants(source, [(r, variant) for r in records])
        assert "if ((" not in tuned  # no run-time test was needed
        assert _outputs(tuned, tmp_path, f"tuned{k}", runs, "4") == expected


def test_rows_of_a_leading_dimension_vary_behind_the_relation_they_need(env, capsys):
    """``a[i * ld + j]`` for ``j < m``: rows apart exactly where ``m <= ld``. The sizes
    at which the proof's question fails give that relation, which the variants run
    behind (Polly's run-time assumptions), not the one measured size."""
    (loop,) = _analyze("leading_dimension.c", "200 150 160", capsys).values()
    assert loop["kept"] == {} and loop["guard"] == "((ld) >= (m) || (m) <= 0 || (n) <= 0)"
    assert loop["guard_sizes"] == {}  # no size fixed: the relation holds at many


@pytest.mark.slow
def test_the_leading_dimension_variant_prints_the_original_output_wherever_it_runs(tmp_path):
    session = autotune.Session(db=tmp_path / "s.db", args=["200", "150", "160"])
    (rec,) = session.analyze(DATA / "leading_dimension.c", profile=True, formulas="").loops
    source = read_source(DATA / "leading_dimension.c")
    tuned = apply_variants(source, [(rec, Variant("dynamic", 5, 4))])
    assert f"if ({rec.guard})" in tuned
    runs = [["200", "150", "160"], ["97", "64", "64"], ["31", "1", "300"], ["500", "7", "9"]]
    expected = _outputs(source, tmp_path, "original", runs, "1")
    assert _outputs(tuned, tmp_path, "tuned", runs, "4") == expected


NEIGHBOUR_LISTS = {25: "build_struct", 38: "build_flat", 53: "build_while", 70: "build_pairs"}
NEIGHBOUR_TRAPS = (18, 25, 32, 42, 49, 60)


def test_neighbour_lists_filled_by_a_tested_counter_are_proven(env, capsys):
    """``if (cnt < maxn) list[i * maxn + cnt++] = j`` from ``cnt = 0``: the counter only
    moves up, so its value is at least 0, and the test bounds the very value the store
    reads; each row stays its atom's. A call in the test (a distance) stores nothing
    the bound reads."""
    loops = _analyze("neighbour_lists.c", "300 24", capsys)
    assert {line: lp["function"] for line, lp in loops.items()} == NEIGHBOUR_LISTS
    for line, lp in loops.items():
        assert lp["kept"] == {} and lp["tunable"] and lp["guard"] == "", (line, lp["kept"])


def test_neighbour_lists_that_spill_into_the_next_row_are_kept(env, capsys):
    """A test by <=, a store after ++cnt, a counter that steps back or starts at -1, a
    test of another counter, a counter a helper moves through its address."""
    loops = _analyze("neighbour_lists_traps.c", "300", capsys)
    assert sorted(loops) == list(NEIGHBOUR_TRAPS)
    for line, lp in loops.items():
        assert set(lp["kept"]) == BOTH and not lp["tunable"], (line, lp["kept"])
        assert "writes list" in lp["kept"]["schedule"], (line, lp["kept"])


@pytest.mark.slow
def test_neighbour_list_variants_print_the_original_output(tmp_path):
    """The variants, as the tuner writes them, print the original's output with rows
    long enough and with rows that fill up (a cap of 3 slots)."""
    session = autotune.Session(db=tmp_path / "s.db", args=["300", "24"])
    records = session.analyze(DATA / "neighbour_lists.c", profile=True, formulas="").loops
    assert len(records) == len(NEIGHBOUR_LISTS) and all(r.tunable for r in records)
    source = read_source(DATA / "neighbour_lists.c")
    runs = [["300", "24"], ["257", "3"], ["64", "1"]]
    expected = _outputs(source, tmp_path, "original", runs, "1")
    for k, variant in enumerate([Variant("dynamic", 1, 4), Variant("guided", 5, 3)]):
        tuned = apply_variants(source, [(r, variant) for r in records])
        assert _outputs(tuned, tmp_path, f"tuned{k}", runs, "4") == expected

"""Loops proven only above a size: varied behind a run-time test of that size (loop
versioning), as the build hook writes them, compiled and run at sizes on both sides of
the test; and the sizes a test cannot stand for keep the loop as written."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import islpy as isl
import pytest

from autotune import api
from autotune.analysis.proof import conditions
from autotune.textfile import read_source
from autotune.variants.apply import apply_variants
from autotune.variants.errors import EmitError
from autotune.variants.space import Variant

DATA = Path(__file__).parent / "data" / "c" / "proof"
GCC = shutil.which("gcc")


def _build_run(text: str, work: Path, name: str, sizes: list[int]) -> list[str]:
    src = work / f"{name}.c"
    src.write_text(text)
    exe = work / name
    subprocess.run(["gcc", "-O2", "-fopenmp", str(src), "-o", str(exe)], check=True)
    env = {**os.environ, "OMP_NUM_THREADS": "3"}
    return [
        subprocess.run(
            [str(exe), str(n)], capture_output=True, text=True, env=env, check=True
        ).stdout
        for n in sizes
    ]


def _presumed_lines(text: str) -> dict[int, list[str]]:
    """Line number as the compiler presumes it (``#line`` honoured) -> the lines there."""
    out: dict[int, list[str]] = {}
    line = 1
    for row in text.split("\n"):
        m = re.match(r"\s*#line (\d+)", row)
        if m:
            line = int(m.group(1))
            continue
        out.setdefault(line, []).append(row)
        line += 1
    return out


@pytest.mark.skipif(GCC is None, reason="needs gcc")
def test_chain_proven_above_a_size_runs_behind_its_guard(tmp_path):
    path = DATA / "bt_runtime_grid.c"
    unit = api.analyze(path)
    loops = {r.line: r for r in unit.loops}
    assert set(loops) == {16, 21, 26}
    for rec in loops.values():
        assert rec.guard == "grid_points[0] >= 6"
        assert "schedule" not in rec.kept
        assert any("proven only where grid_points[0] >= 6" in w for w in rec.warnings)
    source = read_source(path)
    tuned = apply_variants(source, [(r, Variant("dynamic", 1, None)) for r in loops.values()])
    assert tuned.count("if (grid_points[0] >= 6) {") == 3
    assert tuned.count("schedule(dynamic, 1)") == 3 or tuned.count("schedule(dynamic,1)") == 3
    # every user line keeps its number: each original line is found where it was
    original = source.split("\n")
    presumed = _presumed_lines(tuned)
    for number, row in enumerate(original, start=1):
        if "#pragma omp for" not in row:
            assert row in presumed.get(number, []), (number, row)
    sizes = [4, 5, 12, 20]
    assert _build_run(tuned, tmp_path, "tuned", sizes) == _build_run(
        source, tmp_path, "original", sizes
    )


def test_size_held_by_each_thread_is_no_guard(tmp_path):
    """The size as a function parameter: one copy per thread, no test can stand for it."""
    unit = api.analyze(DATA / "grid_param.c")
    for rec in unit.loops:
        assert rec.guard == ""
        assert "nowait chain" in rec.kept["schedule"]
    source = read_source(DATA / "grid_param.c")
    with pytest.raises(EmitError, match="not tunable: in a nowait chain"):
        apply_variants(source, [(unit.loops[0], Variant("dynamic", 1, None))])


def test_lower_bounds_only_for_failures_at_small_sizes():
    at_four = isl.Set("[P_n_1, P_m_2] -> { : P_n_1 = 4 and P_m_2 >= 3 }")
    at_five = isl.Set("[P_n_1] -> { : P_n_1 = 5 }")
    everywhere = isl.Set("[P_n_1] -> { : P_n_1 >= 3 }")
    huge = isl.Set("[P_n_1] -> { : P_n_1 <= 100000 }")
    other = isl.Set("[P_k_3] -> { : P_k_3 <= 2 }")
    usable = {"P_n_1", "P_m_2"}
    assert conditions.lower_bounds([at_four, at_five], usable) == {"P_n_1": 6}
    # a failure at every size, at sizes beyond SMALL, or in a parameter no test can read
    assert conditions.lower_bounds([everywhere, huge, other], usable) == {}


@pytest.mark.skipif(GCC is None, reason="needs gcc")
def test_a_size_held_in_a_shared_local_of_main_is_a_guard(tmp_path):
    """Rodinia style: ``int n = atoi(argv[1])`` in main, shared by the region's team."""
    path = DATA / "rows_local.c"
    unit = api.analyze(path)
    assert [r.guard for r in unit.loops] == ["n >= 5", "n >= 5"]
    source = read_source(path)
    tuned = apply_variants(source, [(r, Variant("guided", 2, None)) for r in unit.loops])
    assert tuned.count("if (n >= 5) {") == 2
    sizes = [4, 5, 16, 64]
    assert _build_run(tuned, tmp_path, "tuned", sizes) == _build_run(
        source, tmp_path, "original", sizes
    )


def test_a_size_each_thread_copies_inside_the_region_is_no_guard():
    unit = api.analyze(DATA / "rows_private.c")
    for rec in unit.loops:
        assert rec.guard == "" and "nowait chain" in rec.kept["schedule"]


def test_analyze_and_rank_say_the_guard(tmp_path, monkeypatch, capsys):
    """The user reads the test a tuned loop will run behind, without --json or -v."""
    from autotune.cli.main import main

    monkeypatch.setenv("AUTOTUNE_DB", str(tmp_path / "r.db"))
    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path / "cache"))
    assert main(["analyze", str(DATA / "bt_runtime_grid.c")]) == 0
    out = capsys.readouterr().out
    assert out.count("proven only where grid_points[0] >= 6: variants run behind") == 3
    assert main(["rank", str(DATA / "rows_local.c"), "--args", "16"]) == 0
    assert capsys.readouterr().out.count("proven only where n >= 5") == 2


@pytest.mark.skipif(GCC is None, reason="needs gcc")
def test_a_chain_failing_at_two_small_sizes_is_guarded_above_both(tmp_path):
    """NPB SP's dissipation chain: its first and last loops meet at n = 4 (planes 1 and
    2) and at n = 5 (plane 2). The question stops at its first failing pair, so one
    round of assuming larger sizes clears only n = 4; the next round, asked under that
    assumption, finds n = 5. The guard covers both, and variants print the original's
    result on both sides of it."""
    path = DATA / "sp_dissipation.c"
    loops = {r.line: r for r in api.analyze(path).loops}
    first = loops[19]
    assert first.guard == "grid_points[0] >= 6" and "schedule" not in first.kept
    source = read_source(path)
    tuned = apply_variants(source, [(first, Variant("dynamic", 1, None))])
    assert tuned.count("if (grid_points[0] >= 6) {") == 1
    sizes = [4, 5, 6, 7, 12]
    assert _build_run(tuned, tmp_path, "tuned", sizes) == _build_run(
        source, tmp_path, "original", sizes
    )


@pytest.mark.skipif(GCC is None, reason="needs gcc")
def test_the_variants_command_writes_guarded_variants(tmp_path, capsys, monkeypatch):
    """``autotune variants`` on loops whose trip counts are known and whose proof needs
    the plane count: each variant file carries the test, says its directive in the
    manifest, and prints what the original prints on both sides of the test."""
    import json

    from autotune.cli.main import main

    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path / "cache"))
    path = DATA / "plane_guard.c"
    out = tmp_path / "v"
    args = ["--threads", "2", "--schedules", "dynamic", "--chunks", "none,1"]
    assert main(["variants", str(path), "-o", str(out), *args]) == 0
    capsys.readouterr()
    manifest = json.loads((out / "manifest.json").read_text())
    written = [v for lp in manifest["loops"] for v in lp["variants"] if v["key"] != "baseline"]
    assert len(written) == 6, manifest  # three loops, two schedules each
    sizes = [4, 5, 12]
    expected = _build_run(read_source(path), tmp_path, "original", sizes)
    for v in written:
        assert v["directive"].startswith("#pragma omp for nowait schedule(dynamic"), v
        text = (out / v["file"]).read_text()
        assert "if (grid_points[0] >= 6) {" in text
        assert _build_run(text, tmp_path, "variant", sizes) == expected, v["file"]

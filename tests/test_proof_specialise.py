"""Loops proven only at the sizes one run measured (``proof.specialise``): FFT passes
whose extents are powers of two, a scratch row covered only when two sizes agree. Each
is analysed with its profile run, varied behind an ``==`` test of those sizes as the
tuner writes it, compiled and run at the measured sizes and at others; without a
profile, or with sizes that change between executions, the loop is kept as written."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

import autotune
from autotune.analysis.proof import unroll
from autotune.textfile import read_source
from autotune.variants.apply import apply_variants
from autotune.variants.space import Variant

DATA = Path(__file__).parent / "data" / "c" / "proof"
pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")


def _outputs(text: str, work: Path, name: str, runs: list[list[str]]) -> list[str]:
    src = work / f"{name}.c"
    src.write_text(text)
    exe = work / name
    subprocess.run(["gcc", "-O2", "-fopenmp", str(src), "-o", str(exe), "-lm"], check=True)
    env = {**os.environ, "OMP_NUM_THREADS": "3"}
    return [
        subprocess.run([str(exe), *a], capture_output=True, text=True, env=env, check=True).stdout
        for a in runs
    ]


def _loop(tmp_path: Path, name: str, args: list[str], profile: bool = True):
    session = autotune.Session(db=tmp_path / "s.db", args=args, ldflags=["-lm"])
    (rec,) = session.analyze(DATA / name, profile=profile, formulas="").loops
    return rec


def _varied_behind(tmp_path: Path, name: str, args: list[str], guard: str, variants, runs):
    """The loop is freed behind exactly ``guard``, and each variant, applied as the tuner
    writes it, prints what the original prints at every size of ``runs``."""
    rec = _loop(tmp_path, name, args)
    assert "schedule" not in rec.kept, rec.kept
    assert rec.guard == guard
    source = read_source(DATA / name)
    expected = _outputs(source, tmp_path, "original", runs)
    for k, v in enumerate(variants):
        tuned = apply_variants(source, [(rec, v)])
        assert f"if ({rec.guard})" in tuned if guard else "if ((" not in tuned
        assert _outputs(tuned, tmp_path, f"tuned{k}", runs) == expected
    return rec


def test_fft_passes_proven_at_measured_sizes_run_behind_their_test(tmp_path):
    rec = _loop(tmp_path, "stockham_runtime.c", ["6", "64"])
    assert "schedule" not in rec.kept
    # the block width steps the row loop: at least that far apart, whatever its value
    # (the rows' own bound is not fixed either: a test of fewer sizes)
    assert rec.guard == "(m) == 6 && (n) == 64"
    assert any(w.startswith("proven only at the sizes the profile run") for w in rec.warnings)
    assert "thread count is the parallel region's" in rec.kept["threads"]
    # without the profile run the passes are out of Presburger's reach: kept
    static = _loop(tmp_path, "stockham_runtime.c", [], profile=False)
    assert "schedule" in static.kept and not static.guard
    source = read_source(DATA / "stockham_runtime.c")
    runs = [["6", "64"], ["5", "48"], ["7", "24"]]
    expected = _outputs(source, tmp_path, "original", runs)
    for k, v in enumerate([Variant("dynamic", 1, None), Variant("static", 1, None)]):
        tuned = apply_variants(source, [(rec, v)])
        assert f"if ({rec.guard})" in tuned
        assert _outputs(tuned, tmp_path, f"tuned{k}", runs) == expected


def test_scratch_covered_where_fill_reaches_n_is_varied_only_there(tmp_path):
    """The scratch row is covered by the iteration's own copy exactly where fill >= n:
    the sizes at which the proof's question fails say so, and their complement is the
    run-time test (Polly's run-time assumptions), not the one measured size."""
    rec = _loop(tmp_path, "scratch_fill_runtime.c", ["64", "64"])
    assert "schedule" not in rec.kept
    assert rec.guard == "((n) <= 0 || (fill) >= (n))"
    source = read_source(DATA / "scratch_fill_runtime.c")
    runs = [["64", "64"], ["48", "64"], ["64", "32"], ["100", "80"]]
    expected = _outputs(source, tmp_path, "original", runs)
    variant = Variant("static", 1, None)
    assert _outputs(apply_variants(source, [(rec, variant)]), tmp_path, "tuned", runs) == expected
    # the test is what keeps it right: the same variant without it prints another result
    # where the scratch is not covered (fill < n)
    rec.guard = ""
    unguarded = _outputs(apply_variants(source, [(rec, variant)]), tmp_path, "bare", runs[1:2])
    assert unguarded != expected[1:2]


def test_a_blocked_sweep_is_proven_at_its_measured_grid(tmp_path):
    """Hotspot's chunks (row chunk / chunks_in_col, column chunk % chunks_in_row, sizes
    firstprivate on the combined directive): disjoint once the sizes are numbers. The
    test reads only integer sizes (a float constant such as Cap_1, measured as an
    integer 0, would make it false for ever)."""
    _varied_behind(
        tmp_path,
        "blocked_sweep.c",
        ["256", "4"],
        # the chunk count and the rows bound the chunks, but their disjointness needs
        # only the chunks per row and column and the row length: those alone are tested
        "(chunks_in_col) == 16 && (chunks_in_row) == 16 && (col) == 256",
        [Variant("dynamic", 1, None), Variant("guided", 4, 3)],
        [["256", "4"], ["512", "3"], ["128", "5"]],
    )


def test_a_time_step_in_a_struct_is_no_size(tmp_path):
    """A flattened loop sized at run time, scaled by a double ``coef.dt`` (once tested
    as ``(coef.dt) == 0``: measured as an integer, false for ever, so the variants never
    ran). ``k / ny`` and ``k % ny`` give back ``k`` in ``i * ny + j``: proven at every
    size, no test at all, and the variants print the original's output at each."""
    rec = _varied_behind(
        tmp_path,
        "flat_struct_dt.c",
        ["120", "90"],
        "",
        [Variant("dynamic", 7, None)],
        [["120", "90"], ["90", "120"], ["64", "33"]],
    )
    assert not rec.guard_sizes and not any("proven only" in w for w in rec.warnings)


def test_sizes_read_through_a_pointer_by_the_header_are_a_test(tmp_path):
    """``k < g->nx * g->ny`` with ``g`` a pointer: the header reads both members whenever
    the loop is reached, so the test may too (no text through ``->`` was a test before:
    the loop stayed as written)."""
    _varied_behind(
        tmp_path,
        "grid_by_pointer.c",
        ["120", "90"],
        # ny fixed, i = k / 90 stays below nx at every nx: the test is of ny alone
        "(g->ny) == 90",
        [Variant("guided", 3, None)],
        [["120", "90"], ["90", "120"], ["64", "33"]],
    )


def test_sizes_that_change_between_executions_are_no_equality_test(tmp_path):
    """A size measured at two values is no ``==`` test; a relation between the sizes is
    tested each time the loop starts, so it stands for both sweeps (64, 64 and 32, 32)."""
    rec = _loop(tmp_path, "scratch_fill_runtime.c", ["64", "64", "twice"])
    assert rec.profile["ranges"]["n"] == [32, 64]
    assert "schedule" not in rec.kept and rec.guard == "((n) <= 0 || (fill) >= (n))"
    source = read_source(DATA / "scratch_fill_runtime.c")
    runs = [["64", "64", "twice"], ["48", "64", "twice"], ["64", "40", "twice"]]
    expected = _outputs(source, tmp_path, "original", runs)
    tuned = apply_variants(source, [(rec, Variant("dynamic", 2, None))])
    assert _outputs(tuned, tmp_path, "tuned", runs) == expected


def test_which_loops_are_unrolled():
    assert unroll.pass_values(1, 6, "<=", 2) == [1, 3, 5]
    assert unroll.pass_values(0, 100, "<", 1) is None  # past UNROLL_MAX: kept symbolic
    assert unroll.pass_values(0, 4, "<", -1) is None  # never reaches its bound


def test_analyze_says_the_sizes_and_json_holds_the_test(tmp_path, monkeypatch, capsys):
    """As a user meets it: ``analyze --args`` names the measured sizes in one line, and
    ``--json`` carries the test the variants run behind."""
    import json

    from autotune.cli.main import main

    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path / "cache"))
    path = str(DATA / "stockham_runtime.c")
    db = str(tmp_path / "a.db")
    assert main(["analyze", path, "--args", "6 64", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "proven only at the sizes the profile run measured, (m) == 6 && (n) == 64" in out
    assert out.count("(m) == 6 && (n) == 64") == 1
    assert main(["analyze", path, "--args", "6 64", "--db", db, "--json"]) == 0
    (loop,) = json.loads(capsys.readouterr().out)["loops"]
    assert loop["guard"] == "(m) == 6 && (n) == 64" and loop["guard_sizes"] == {"m": 6, "n": 64}
    # the sizes the proof met, of which the test keeps those it needs
    assert loop["proof_sizes"] == ["block", "m", "n", "rows"]
    # a relation between sizes is said the same way, with the test it runs behind
    assert main(["analyze", str(DATA / "scratch_fill_runtime.c"), "--args", "64 64"]) == 0
    assert "proven only where ((n) <= 0 || (fill) >= (n)): variants run" in capsys.readouterr().out


def test_the_build_hook_ships_a_choice_made_at_measured_sizes_behind_their_test(tmp_path, capsys):
    """``tune`` stores the sizes with its choice; the build hook, which runs nothing,
    proves the loop at them again and compiles the variant behind the test of them: the
    program prints the original's result at those sizes and at others."""
    from buildhook_support import by_source, hook_env, report, run

    from autotune.measure.machine import detect_machine
    from autotune.measure.store import Store
    from autotune.tuning.persist import save_winner

    proj = tmp_path / "proj"
    proj.mkdir()
    src = proj / "sweep.c"
    shutil.copy(DATA / "stockham_runtime.c", src)
    rec = _loop(tmp_path, "stockham_runtime.c", ["6", "64"])
    assert rec.guard_sizes == {"m": 6, "n": 64}
    env = hook_env(tmp_path, OMP_NUM_THREADS="3")
    db = Path(env["AUTOTUNE_DB"])
    with Store(db) as store:
        fp = store.add_machine(detect_machine("gcc"))
        save_winner(
            store,
            source_text=src.read_text(),
            defines={},
            machine_fp=fp,
            record=rec,
            variant=Variant("static", 1, None),
            baseline_s=0.02,
            best_s=0.01,
        )
        rows = store.tuned(source_hash=_hash(src), flags_key=_defines(), machine=fp)
        assert rows[rec.key]["sizes"] == {"m": 6, "n": 64}
    run(["autotune-cc", "gcc", "-O2", "-fopenmp", "sweep.c", "-o", "tuned", "-lm"], proj, env)
    run(["gcc", "-O2", "-fopenmp", "sweep.c", "-o", "plain", "-lm"], proj, env)
    for args in (["6", "64"], ["5", "48"]):
        assert (
            run(["./tuned", *args], proj, env).stdout == run(["./plain", *args], proj, env).stdout
        )
    shipped = by_source(report(db, capsys))["sweep.c"]
    assert shipped["used"] == "tuned", shipped
    kept = Path(env["AUTOTUNE_CACHE_DIR"]) / "buildhook" / "tuned"
    texts = [p.read_text(errors="replace") for p in kept.rglob("*") if p.is_file()]
    assert any("(m) == 6 && (n) == 64" in t and "schedule(static, 1)" in t for t in texts)


def _hash(path: Path) -> str:
    from autotune.buildhook import keys

    return keys.content_hash(path.read_text())


def _defines() -> str:
    from autotune.buildhook import keys

    return keys.defines_key({})


def test_a_size_read_through_a_pointer_only_in_a_branch_is_no_test(tmp_path):
    """A test reads its sizes whether or not the loop would: ``fill_p[0]`` is read only
    when ``mode`` is set, and ``fill_p`` is NULL otherwise, so no test may read it (a
    test ``(fill_p[0]) == 64 && ...`` faults where the loop as written runs)."""
    rec = _loop(tmp_path, "guard_null_size.c", ["1"])
    assert "fill_p" not in rec.guard
    assert "schedule" in rec.kept
    assert "fill_p[0]" not in rec.proof_sizes

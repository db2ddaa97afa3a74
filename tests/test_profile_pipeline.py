"""One loop never costs a file its profile run, and directives are read where real codes
write them: a loop header written twice under ``#if defined(_OPENMP)``, a cast in a bound,
directives made by a stringizing macro (rewritten at the use site once the preprocessor
is shown to make the same program), and a macro that makes more than a directive (kept)."""

from __future__ import annotations

import json
from pathlib import Path

from autotune.cli.main import main

DATA = Path(__file__).parent / "data" / "profile"


def analyzed(capsys, name: str, args: str) -> dict[int, dict]:
    assert main(["analyze", str(DATA / name), "--args", args, "--json"]) == 0
    return {lp["line"]: lp for lp in json.loads(capsys.readouterr().out)["loops"]}


def test_a_header_written_twice_and_a_cast_in_a_bound_are_profiled(capsys):
    """The end of a body after '#else ... #endif' (the serial header) was 'unbalanced
    brackets', and '(uint64_t)n * 2' printed uint64_t as a value: no profile run at all."""
    loops = analyzed(capsys, "twice_written_header.c", "3000")
    assert sorted(loops) == [13, 29]
    assert loops[13]["trip_count"] == 3000 and loops[29]["trip_count"] == 6000
    assert all(lp["tunable"] and lp["facts"] == "profile" for lp in loops.values())


def test_a_macro_made_directive_is_varied_at_its_use_site(capsys, tmp_path):
    """PRAGMA(omp parallel for) and OMP_PARALLEL_FOR(schedule(static)): both loops are
    profiled and varied; every variant of every loop prints what the original prints."""
    loops = analyzed(capsys, "stringized_directive.c", "4000")
    assert sorted(loops) == [12, 19, 35]
    assert all(lp["tunable"] and lp["facts"] == "profile" for lp in loops.values()), loops
    src = tmp_path / "sd.c"
    src.write_text((DATA / "stringized_directive.c").read_text())
    argv = ["tune", str(src), "--args", "20000", "--exhaustive", "--repetitions", "1"]
    assert main([*argv, "--allow-busy", "--json", "-q", "--threads", "1,2"]) == 0
    tuned = json.loads(capsys.readouterr().out)["files"][0]["loops"]
    for lp in tuned:
        statuses = {v["status"] for v in lp["variants"]}
        assert statuses == {"ok"} and len(lp["variants"]) > 3, (lp["id"], statuses)


def test_the_variant_of_a_macro_made_directive_replaces_the_invocation_only(tmp_path):
    """The invocation becomes the _Pragma it expands to, with the new clause; the macro's
    definition and every other line stay as the user wrote them."""
    from autotune.analysis import analyze_file
    from autotune.variants.emit import emit_variant
    from autotune.variants.space import Variant

    path = DATA / "stringized_directive.c"
    original = path.read_text()
    (smooth, _, _) = analyze_file(str(path)).loops
    assert smooth.directive_sites == {11: "omp parallel for schedule(static)"}
    text = emit_variant(original, smooth, Variant("dynamic", 8, None), instrument=False)
    changed = [
        (a, b) for a, b in zip(original.splitlines(), text.splitlines(), strict=True) if a != b
    ]
    assert changed == [
        (
            "  OMP_PARALLEL_FOR(schedule(static))",
            '  _Pragma("omp parallel for schedule(dynamic, 8)")',
        )
    ]


def test_a_macro_that_makes_more_than_a_directive_is_kept_and_the_rest_profiled(capsys):
    """COUNTED_FOR(c) expands to 'c += 1;' and the directive: its _Pragma alone would be
    another program, so the loop is kept as written; the loop beside it is profiled."""
    loops = analyzed(capsys, "macro_with_code.c", "3000")
    assert not loops[18]["tunable"]
    assert "comes from macro COUNTED_FOR(...)" in loops[18]["reason"]
    assert loops[22]["tunable"] and loops[22]["facts"] == "profile"
    assert loops[22]["trip_count"] == 3000


def test_analyze_without_args_suggests_them_for_loops_sized_at_run_time(capsys):
    assert main(["analyze", str(DATA / "twice_written_header.c")]) == 0
    err = capsys.readouterr().err
    assert (
        'some loops are sized at run time; give the program\'s own arguments with --args "..."'
        in (err)
    )
    assert main(["analyze", str(DATA / "twice_written_header.c"), "--args", "100"]) == 0
    assert "hint:" not in capsys.readouterr().err

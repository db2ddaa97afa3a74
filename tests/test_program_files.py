"""A program of several C files named on one command line, as ``autotune tune *.c`` names
it: the files are read together (the proof and the counts follow calls between them, the
profile run links), and files that each define ``main`` stay separate programs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from tune_support import SMALL_BUDGET

from autotune.cli.main import main
from autotune.measure.profile import _unwrapped

DATA = Path(__file__).parent / "data" / "c"
FILES = ["main.c", "simulation.c", "physics.c"]  # the proxy app; main.c defines main


@pytest.fixture
def program(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("AUTOTUNE_DB", str(tmp_path / "results.db"))
    shutil.copytree(DATA / "program", tmp_path / "app")
    monkeypatch.chdir(tmp_path / "app")
    return tmp_path / "app"


def test_the_files_of_one_program_are_read_together(program, capsys):
    assert main(["analyze", *FILES, "--args", "-l 2000", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    (loop,) = out["loops"]
    # the profile build links the three files; before, the struct handed to the kernel
    # by value was printed as a number ("aggregate value used where an integer was
    # expected") and the loop stayed unsized
    assert not any("failed" in note for note in out["profile"]), out["profile"]
    assert loop["facts"] == "profile" and loop["trip_count"] == 2000
    # the six energy levels of physics.c's kernel are counted in the loop's iterations,
    # and what the count could not follow there is said with that file's name
    assert loop["iterations"] == 2000 * 6
    assert any(w.startswith("physics.c:20: while loop") for w in loop["warnings"])
    # the kernel writes the five channels of its lookup through &out[i * in.stride]
    (out,) = [a for a in loop["arrays"] if a["name"] == "out"]
    assert out["distinct_elements"] == 2000 * 5 and out["exact"]
    # the proof follows the call into physics.c: proven behind the stride test, and
    # where it is not (a smaller stride) it names the kernel's lines in their file
    assert loop["tunable"] and loop["guard"] == "in.stride >= 5"
    assert any("(physics.c:34: xs[c]; physics.c:36:" in w for w in loop["warnings"])


def test_a_bound_only_the_other_file_can_read_leaves_the_profile_whole(program, capsys):
    # the kernel's channel count as a static of physics.c: simulation.c cannot name it,
    # so the profile run must not print it at the loop (before: "'channels' undeclared",
    # and no loop of the file was sized)
    physics = program / "physics.c"
    text = physics.read_text().replace(
        '#include "xs.h"\n', '#include "xs.h"\n\nstatic int channels = 5;\n', 1
    )
    physics.write_text(
        text.replace("for (int c = 0; c < 5; c++)", "for (int c = 0; c < channels; c++)")
    )
    assert main(["analyze", *FILES, "--args", "-l 2000", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    (loop,) = out["loops"]
    assert not any("failed" in note for note in out["profile"]), out["profile"]
    assert loop["facts"] == "profile" and loop["trip_count"] == 2000
    # the stride test would have to read the count: the loop stays as written
    assert not loop["tunable"]


def test_a_note_says_the_files_are_one_program(program, capsys):
    assert main(["analyze", *FILES]) == 0
    err = capsys.readouterr().err
    assert "3 files, one program (only main.c defines main)" in err


def test_files_that_each_define_main_stay_separate_programs(tmp_path, capsys):
    files = [DATA / "nas_style_cg.c", DATA / "edge_loops.c"]
    assert main(["analyze", *map(str, files), "--json"]) == 0
    captured = capsys.readouterr()
    assert "one program" not in captured.err
    loops = json.loads(captured.out)["loops"]
    assert {Path(lp["file"]).name for lp in loops} == {f.name for f in files}


def test_tune_measures_the_program_built_from_all_its_files(program, capsys):
    argv = ["tune", *FILES, "--args", "-l 4000", *SMALL_BUDGET, "--json", "-q"]
    assert main(argv) == 0  # --allow-busy (SMALL_BUDGET): the machine's load never decides
    (tuned,) = json.loads(capsys.readouterr().out)["files"]
    assert Path(tuned["file"]).name == "simulation.c"  # main.c and physics.c have no loop
    (result,) = tuned["loops"]
    # every variant measured ran the program built from the three files and printed
    # what the original prints
    measured = [v for v in result["variants"] if v["status"] != "pruned"]
    assert result["baseline_status"] == "ok" and measured
    assert all(v["status"] == "ok" for v in measured), measured


def test_a_program_without_a_loop_is_one_line(program, capsys):
    assert main(["tune", "main.c", "physics.c", "--args", "-l 100", "-q"]) != 0
    err = capsys.readouterr().err
    assert "none of the program's 2 files has an OpenMP loop" in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    "text,bare",
    [
        ("(((input))).numL", "input.numL"),  # an argument in a called function's bound
        ("((g))->nx * (g)->ny", "g->nx * g->ny"),
        ("(size_t)-1", "(size_t)-1"),  # a cast stays a cast
        ("(int) x", "(int) x"),
        ("f((x))", "f(x)"),  # a call keeps its parentheses
    ],
)
def test_profile_texts_lose_only_the_parentheses_around_a_name(text, bare):
    assert _unwrapped(text) == bare

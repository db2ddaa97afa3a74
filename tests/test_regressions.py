"""Programs written in the style of each finding of the trust review, through the commands
a user runs: no traceback, and a tuned program that computes what the original does."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from tune_support import output_of, tune_json

from autotune.cli.main import main

DATA = Path(__file__).parent / "data" / "c" / "regress"
PROGRAMS = ["stream_abs.c", "latin1_comment.c", "kr_main.c", "region_dominant.c"]


@pytest.mark.slow
@pytest.mark.parametrize("name", PROGRAMS)
def test_tune_apply_gives_a_program_with_the_same_output(name, env, capsys):
    src = DATA / name
    out = env / f"tuned_{name}"
    f = tune_json(capsys, src, apply=out)
    assert f["written"] == str(out)
    assert [lp for lp in f["loops"] if lp["tunable"]], "nothing was tunable"
    original, tuned = src.read_bytes(), out.read_bytes()
    loops_won = any(lp["best"] for lp in f["loops"])
    region_won = any(r["threads"] is not None for r in f["regions"])
    if loops_won:
        assert f["program"]["speedup"] > 1.0
    if loops_won or region_won:
        assert tuned != original
    else:
        assert tuned == original  # byte for byte, Latin-1 comment and all
    assert output_of(out, env / "t") == output_of(src, env / "o")


@pytest.mark.parametrize("command", [["analyze"], ["rank"], ["structure"], ["variants", "-o"]])
def test_latin1_and_kr_sources_get_no_traceback(command, env, capsys):
    for name in ("latin1_comment.c", "kr_main.c"):
        argv = [command[0], str(DATA / name)]
        if command[1:]:
            argv += [command[1], str(env / f"v_{name}")]
        assert main(argv) == 0, capsys.readouterr().err
        assert "Traceback" not in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("make") is None, reason="make not installed")
@pytest.mark.parametrize("name", PROGRAMS)
def test_tune_mode_build_gives_a_program_with_the_same_output(name, tmp_path):
    """The same programs built by a Makefile through autotune-cc in tune mode."""
    from buildhook_support import hook_env, run, warnings_in

    proj = tmp_path / "proj"
    proj.mkdir()
    shutil.copy(DATA / name, proj / name)
    (proj / "Makefile").write_text(
        f"CFLAGS = -O2 -fopenmp -w\nLDLIBS = -lm\nprog: {name}\n"
        f"\t$(CC) $(CFLAGS) -o prog {name} $(LDLIBS)\n"
    )
    run(["make", "-s", "CC=gcc"], proj)
    expected = subprocess.run(["./prog"], cwd=proj, capture_output=True, check=True).stdout
    (proj / "prog").unlink()
    env = hook_env(
        tmp_path,
        AUTOTUNE_MODE="tune",
        AUTOTUNE_TUNE_ARGS="--top 1 --repetitions 1 --confirm-runs 2 --allow-busy",
    )
    build = run(["make", "-s", "CC=autotune-cc gcc"], proj, env)
    assert warnings_in(build.stderr) == [], build.stderr
    # the build says what it waits for, and how it ended, instead of going silent
    assert f"autotune-cc: tuning {name} (this can take minutes" in build.stderr
    assert re.search(rf"autotune-cc: tuned {re.escape(name)} in \d+ s: ", build.stderr)
    got = subprocess.run(["./prog"], cwd=proj, capture_output=True, check=True).stdout
    assert got == expected
    log = (tmp_path / "results.tune.log").read_text(errors="replace")
    assert log.count(f" tune {name} ") == 1 and "Traceback" not in log


def test_a_program_calling_time_without_its_header_is_profiled_and_measured(env, capsys):
    """The timing helpers appended after the user's code include no system header: one
    included there conflicted with the user's implicit ``int time()`` and neither the
    profile build (run-time trip counts) nor any timed variant compiled."""
    import json

    src = DATA / "implicit_time.c"
    argv = ["measure", str(src), "--variants", "dynamic,8,t2", "--repetitions", "1", "--json"]
    assert main([*argv, "--quiet"]) == 0, capsys.readouterr().err
    loops = json.loads(capsys.readouterr().out)["loops"]
    assert len(loops) == 2  # both trip counts come from the profile run (n is argv's)
    for loop in loops:
        assert loop["baseline"]["status"] == "ok"
        assert [v["status"] for v in loop["variants"]] == ["ok"]


def test_the_structure_timing_compiles_with_a_users_implicit_declarations(env, capsys):
    src = DATA / "implicit_time.c"
    argv = ["structure", str(src), "--measure", "--threads", "1", "--repetitions", "1"]
    assert main([*argv, "--json", "--quiet"]) == 0, capsys.readouterr().err
    tree = json.loads(capsys.readouterr().out)["tree"]
    timed = [tree, *tree["children"]]
    assert len(timed) == 3  # the program and its two loops, each timed
    assert all(node["measured"]["1"]["total_s"] > 0 for node in timed)

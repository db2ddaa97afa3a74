"""Programs written in the style of each finding of the trust review, through the commands
a user runs: no traceback, and a tuned program that computes what the original does."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from tune_support import output_of, tune_json

from autotune.cli.main import main

DATA = Path(__file__).parent / "data" / "c" / "regress"
PROGRAMS = ["stream_abs.c", "latin1_comment.c", "kr_main.c", "region_dominant.c"]


@pytest.fixture
def env(tmp_path, monkeypatch):
    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("AUTOTUNE_DB", str(tmp_path / "results.db"))
    return tmp_path


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
        AUTOTUNE_TUNE_ARGS="--top 1 --repetitions 1 --confirm-runs 2",
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

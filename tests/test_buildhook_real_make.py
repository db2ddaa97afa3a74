"""Tune mode on a hand-written Makefile as real projects write them: single-flag
variables, ``cc -c file.c`` without ``-o``, libraries in LDLIBS, a source without
OpenMP. The real tuner runs (smallest useful budget) and the program built with the
tuned object computes what the plain build computes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from buildhook_support import by_source, copy_project, hook_env, report, run, warnings_in

pytestmark = [
    pytest.mark.slow,  # real builds and many runs: the long suite (-m slow)
    pytest.mark.skipif(shutil.which("make") is None, reason="make not installed"),
]

TUNE_ARGS = "--top 1 --repetitions 1 --confirm-runs 2 --allow-busy"


def test_tune_mode_tunes_only_the_openmp_source_and_keeps_the_result(tmp_path, capsys):
    proj = copy_project("real_make", tmp_path)
    run(["make", "-s"], proj)
    expected = run(["./prog"], proj).stdout
    run(["make", "-s", "clean"], proj)

    env = hook_env(tmp_path, AUTOTUNE_MODE="tune", AUTOTUNE_TUNE_ARGS=TUNE_ARGS)
    build = run(["make", "CC=autotune-cc gcc"], proj, env)
    assert warnings_in(build.stderr) == [], build.stderr
    assert run(["./prog"], proj).stdout == expected

    db = Path(env["AUTOTUNE_DB"])
    log = db.with_suffix(".tune.log").read_text()
    calls = [ln for ln in log.splitlines() if ln.startswith("== ")]
    assert len(calls) == 1 and " tune solver.c " in calls[0], log  # not util.c, not main.c
    assert "'--cflags=-O3 -fopenmp'" in calls[0] and "--ldflags=-lm" in calls[0]
    assert "--extra-source" in calls[0]

    rep = by_source(report(db, capsys))
    assert set(rep) == {"main.c", "solver.c", "util.c"}
    assert rep["solver.c"]["output"] == "solver.o"  # "-c solver.c" without -o
    (loop,) = rep["solver.c"]["loops"]
    assert loop["reason"].startswith("measured"), loop
    assert rep["util.c"]["used"] == "original"
    if rep["solver.c"]["used"] == "tuned":  # what is stored was confirmed as a whole program
        assert "the tuned program is" in log and "faster than the original as a whole" in log

    # an ordinary build afterwards compiles what tune decided, without tuning again
    apply_env = hook_env(tmp_path, AUTOTUNE_MODE="apply")
    apply_env["AUTOTUNE_DB"] = str(db)
    again = run(["make", "-B", "CC=autotune-cc gcc"], proj, apply_env)
    assert warnings_in(again.stderr) == []
    assert run(["./prog"], proj).stdout == expected
    assert len(db.with_suffix(".tune.log").read_text().splitlines()) == len(log.splitlines())
    assert by_source(report(db, capsys))["solver.c"]["used"] == rep["solver.c"]["used"]


def test_report_build_shows_the_last_make_run_not_every_run_nearby(tmp_path, capsys):
    """Two make runs a second apart (a full build, then a rebuild of one file): the
    report of the last build is the one compile of the second run."""
    proj = copy_project("real_make", tmp_path)
    env = hook_env(tmp_path, AUTOTUNE_MODE="apply")
    run(["make", "CC=autotune-cc gcc"], proj, env)
    first = by_source(report(Path(env["AUTOTUNE_DB"]), capsys))
    assert set(first) == {"main.c", "solver.c", "util.c"}
    (proj / "util.c").write_text((proj / "util.c").read_text() + "\n/* edited */\n")
    run(["make", "CC=autotune-cc gcc"], proj, env)
    assert set(by_source(report(Path(env["AUTOTUNE_DB"]), capsys))) == {"util.c"}

"""The rank and tune modes of autotune-cc, driven as a build would drive them."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pytest
from buildhook_support import (
    DATA,
    by_source,
    copy_project,
    hook_env,
    report,
    run,
    symbols,
    warnings_in,
    wrapper_exe,
)

from autotune.cli.main import main

pytestmark = pytest.mark.slow  # real builds through the hook: the long suite (-m slow)

DYNAMIC = re.compile(r"GOMP_loop_(nonmonotonic_)?dynamic")


@pytest.fixture
def proj(tmp_path) -> Path:
    return copy_project("two_files", tmp_path)


@pytest.fixture
def expected(proj) -> str:
    run(["gcc", "-fopenmp", "-O2", "main.c", "fill.c", "-o", "plain"], proj)
    return run(["./plain"], proj).stdout


def fake_tune_env(tmp_path: Path, proj: Path) -> dict:
    """Tune mode with a stand-in tuner that records its calls and stores dynamic,8."""
    tool = json.dumps([sys.executable, str(DATA / "fake_tune.py")])
    (proj / ".autotune.toml").write_text(f'[build]\nmode = "tune"\ntune_command = {tool}\n')
    return hook_env(
        tmp_path, FAKE_TUNE_CALLS=str(tmp_path / "calls.jsonl"), FAKE_TUNE_VARIANT="dynamic,8,t-"
    )


def calls(tmp_path: Path) -> list[dict]:
    path = tmp_path / "calls.jsonl"
    return [json.loads(ln) for ln in path.read_text().splitlines()] if path.exists() else []


def test_rank_mode_compiles_the_predicted_best(tmp_path, proj, expected, capsys):
    env = hook_env(tmp_path, AUTOTUNE_MODE="rank")
    proc = run(
        [wrapper_exe(), "gcc", "-fopenmp", "-O2", "main.c", "fill.c", "-o", "prog"], proj, env
    )
    assert warnings_in(proc.stderr) == []
    assert run(["./prog"], proj).stdout == expected
    rep = by_source(report(Path(env["AUTOTUNE_DB"]), capsys))
    loops = rep["main.c"]["loops"] + rep["fill.c"]["loops"]
    assert len(loops) == 2 and all(ld["reason"].startswith("predicted") for ld in loops)
    for ld in loops:  # a prediction is compiled exactly when it beats the original by
        # more than the model's held-out picks were ever wrong (tests/test_ship_rule.py)
        ships = "faster" in ld["reason"] and "not above" not in ld["reason"]
        assert (ld["used"] == "tuned") == ships
        assert (ld["variant"] == "baseline") == (ld["used"] == "original")


def test_tune_mode_tunes_a_whole_program_command_once(tmp_path, proj, expected, capsys):
    env = fake_tune_env(tmp_path, proj)
    argv = [wrapper_exe(), "gcc", "-fopenmp", "-O2", "main.c", "fill.c", "-o", "prog"]
    run(argv, proj, env)
    got = calls(tmp_path)
    assert sorted(c["argv"][0] for c in got) == ["fill.c", "main.c"]
    main_call = next(c["argv"] for c in got if c["argv"][0] == "main.c")
    assert main_call[main_call.index("--extra-source") + 1] == str(proj / "fill.c")
    assert DYNAMIC.search(symbols(proj / "prog"))
    assert run(["./prog"], proj).stdout == expected
    run(argv, proj, env)
    assert len(calls(tmp_path)) == 2  # tuned results are reused, not tuned again
    rep = by_source(report(Path(env["AUTOTUNE_DB"]), capsys))
    assert rep["fill.c"]["used"] == rep["main.c"]["used"] == "tuned"


def test_tune_mode_tunes_separate_compiles_at_the_link(tmp_path, proj, expected, capsys):
    env = fake_tune_env(tmp_path, proj)
    for name in ("main", "fill"):
        run(
            [wrapper_exe(), "gcc", "-fopenmp", "-O2", "-c", f"{name}.c", "-o", f"{name}.o"],
            proj,
            env,
        )
    assert calls(tmp_path) == []  # one file is not a program: nothing to measure yet
    assert not DYNAMIC.search(symbols(proj / "fill.o"))
    run([wrapper_exe(), "gcc", "-fopenmp", "main.o", "fill.o", "-o", "prog"], proj, env)
    got = calls(tmp_path)
    assert sorted(c["argv"][0] for c in got) == ["fill.c", "main.c"]
    assert all("--extra-source" in c["argv"] for c in got)
    assert DYNAMIC.search(symbols(proj / "fill.o"))  # recompiled tuned before the link
    assert DYNAMIC.search(symbols(proj / "prog"))
    assert run(["./prog"], proj).stdout == expected
    rep = by_source(report(Path(env["AUTOTUNE_DB"]), capsys))
    assert rep["fill.c"]["used"] == "tuned" and rep["fill.c"]["output"] == "fill.o"


def test_a_gain_held_back_for_the_load_is_said_and_tried_again_later(tmp_path, proj, capsys):
    """``autotune tune`` found a gain but held it back because the machine was busy (exit
    3): the report quotes that reason, not "no variant was confirmed faster", and the next build
    tunes again once the machine is quiet (while it is still busy, it says so)."""

    def tuned_for(name: str) -> int:
        return sum(c["argv"][0] == name for c in calls(tmp_path))

    env = fake_tune_env(tmp_path, proj)
    env["FAKE_TUNE_BUSY"] = "other processes used 1.90 of 2 cores while autotune measured"
    argv = [wrapper_exe(), "gcc", "-fopenmp", "-O2", "main.c", "fill.c", "-o", "prog"]
    run(argv, proj, env)
    assert tuned_for("main.c") == 1
    rep = by_source(report(Path(env["AUTOTUNE_DB"]), capsys))
    why = rep["main.c"]["reason"]
    assert "held back its gain" in why and "other processes used 1.90 of 2 cores" in why, why
    assert "a later build tries again when it is quiet" in why
    assert "no variant was confirmed faster" not in why and rep["main.c"]["used"] == "original"
    run(argv, proj, env)  # make -B: this machine's load decides whether it tunes again
    rep = by_source(report(Path(env["AUTOTUNE_DB"]), capsys))
    again = rep["main.c"]["reason"]
    if tuned_for("main.c") == 1:
        assert "still busy" in again and "a later build tries again" in again, again
    else:
        assert tuned_for("main.c") == 2 and "held back its gain" in again, again


def test_tune_mode_with_the_real_tuner(tmp_path, capsys):
    """Integration with 'autotune tune' itself (smallest budget: one variant, one run)."""
    proj = copy_project("single", tmp_path)
    env = hook_env(
        tmp_path, AUTOTUNE_MODE="tune", AUTOTUNE_TUNE_ARGS="--top 1 --repetitions 1 --allow-busy"
    )
    proc = run([wrapper_exe(), "gcc", "-fopenmp", "-O2", "sub/kern.c", "-o", "prog"], proj, env)
    assert warnings_in(proc.stderr) == [], proc.stderr
    assert run(["./prog"], proj).stdout == "sub/kern.c:13 1999.5\n"
    db = Path(env["AUTOTUNE_DB"])
    log = db.with_suffix(".tune.log").read_text()
    assert "-m autotune tune sub/kern.c" in log
    kern = by_source(report(db, capsys))["kern.c"]
    # tune stores its decision either way, and when: a faster verified variant, or no
    # variant confirmed faster (then the build compiles the original on purpose)
    reason = kern["loops"][0]["reason"]
    assert reason.startswith("measured") and "(tune of 20" in reason, kern
    if kern["used"] != "tuned":
        assert reason.startswith("measured: no variant was confirmed faster than the original")


def test_rank_mode_proves_with_the_commands_other_sources(tmp_path, capsys):
    """``gcc heat.c grid.c``: the fields come from new_field() in grid.c. The hook hands
    grid.c to the proof, so the sweep is proven (and ranked); when grid.c changes to hand
    out one buffer twice, it is proven again: the sweep varies only behind a test that
    the fields do not overlap, and the build prints what the plain build prints."""
    proj = copy_project("split_alloc", tmp_path)
    run(["gcc", "-fopenmp", "-O2", "heat.c", "grid.c", "-o", "plain"], proj)
    expected = run(["./plain"], proj).stdout
    env = hook_env(tmp_path, AUTOTUNE_MODE="rank")
    argv = [wrapper_exe(), "gcc", "-fopenmp", "-O2", "heat.c", "grid.c", "-o", "prog"]
    run(argv, proj, env)
    assert run(["./prog"], proj).stdout == expected
    (loop,) = by_source(report(Path(env["AUTOTUNE_DB"]), capsys))["heat.c"]["loops"]
    assert loop["reason"].startswith("predicted"), loop

    shared = "static double pool[200000];\ndouble *new_field(int n) { (void)n; return pool; }\n"
    (proj / "grid.c").write_text('#include "grid.h"\n' + shared)
    run(argv, proj, env)
    (loop,) = by_source(report(Path(env["AUTOTUNE_DB"]), capsys))["heat.c"]["loops"]
    assert loop["used"] == "original", loop
    # proven again with the new grid.c: u and v may now be one block, so the sweep varies
    # only behind a test that they do not overlap, which this grid.c fails at run time
    capsys.readouterr()
    assert (
        main(["analyze", str(proj / "heat.c"), "--extra-source", str(proj / "grid.c"), "--json"])
        == 0
    )
    (analysed,) = json.loads(capsys.readouterr().out)["loops"]
    assert analysed["kept"] == {} and "__INTPTR_TYPE__" in analysed["guard"]
    # in place, the sweep races as written: one thread gives the program one output
    run(["gcc", "-fopenmp", "-O2", "heat.c", "grid.c", "-o", "plain"], proj)
    one = {**os.environ, "OMP_NUM_THREADS": "1"}
    assert run(["./prog"], proj, one).stdout == run(["./plain"], proj, one).stdout


PAIR_ENERGY = """#include <stdio.h>
#include <math.h>
#define N 3000
static double x[N], y[N];
int main(void) {
  for (int i = 0; i < N; i++) { x[i] = cos(0.37 * i) * i; y[i] = sin(0.11 * i) * i; }
  double energy = 0.0;
  /* every pair once: row i holds i pairs, so a static schedule is imbalanced */
#pragma omp parallel for reduction(+:energy)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < i; j++)
      energy += 1.0 / sqrt((x[i] - x[j]) * (x[i] - x[j]) + (y[i] - y[j]) * (y[i] - y[j]) + 1.0);
  printf("%.17g\\n", energy);
  return 0;
}
"""


def test_rank_mode_compiles_a_floating_point_reduction_as_written(tmp_path, capsys):
    """A variant of a floating-point reduction adds the partial sums in another order, so
    the program may print other last digits; rank mode runs nothing to check them, so it
    compiles such a loop as written and says why (tune verifies within --rtol)."""
    (tmp_path / "pairs.c").write_text(PAIR_ENERGY)
    run(["gcc", "-fopenmp", "-O2", "pairs.c", "-o", "plain", "-lm"], tmp_path)
    env = hook_env(tmp_path, AUTOTUNE_MODE="rank")
    run([wrapper_exe(), "gcc", "-fopenmp", "-O2", "pairs.c", "-o", "prog", "-lm"], tmp_path, env)
    assert run(["./prog"], tmp_path).stdout == run(["./plain"], tmp_path).stdout
    (loop,) = by_source(report(Path(env["AUTOTUNE_DB"]), capsys))["pairs.c"]["loops"]
    assert loop["used"] == "original", loop
    assert "reduction(+:energy)" in loop["reason"] and "nothing checks them" in loop["reason"]
    assert not DYNAMIC.search(symbols(tmp_path / "prog"))
    # 'autotune rank' says the same, also in its JSON
    from autotune.cli.main import main

    capsys.readouterr()
    assert main(["rank", str(tmp_path / "pairs.c"), "--json", "--db", env["AUTOTUNE_DB"]]) == 0
    (ranked,) = json.loads(capsys.readouterr().out)["files"][0]["loops"]
    unmeasured = ranked["unmeasured"]
    assert unmeasured["ships"] is False and "nothing checks" in unmeasured["why"]

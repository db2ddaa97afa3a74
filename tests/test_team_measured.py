"""The threads the original runs each loop with, measured by the profile run: programs
choose their own (XSBench's -t, Rodinia lud's omp_num_threads, kmeans' -n), and the
model's figure of the loop as written, the search's anchor and the region step's
counts must start from that team, not from one thread per core."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from tune_support import tune_json

from autotune.cli.main import main
from autotune.measure.machine import detect_machine
from autotune.variants.space import default_thread_counts

PROGRAM = Path(__file__).parent / "data" / "c" / "runtime" / "threads_option.c"
REGION_LOOPS, COMBINED = (37, 40), 58  # the omp for loops of relax(); the count in main


def analyze(args: str, capsys) -> dict[int, dict]:
    assert main(["analyze", str(PROGRAM), "--args", args, "--json"]) == 0
    return {lp["line"]: lp for lp in json.loads(capsys.readouterr().out)["loops"]}


@pytest.mark.parametrize("threads", [1, 3])
def test_the_profile_run_measures_the_team_the_program_chooses(threads, env, capsys):
    loops = analyze(f"-t {threads} -n 50000", capsys)
    assert [loops[line]["team"] for line in (*REGION_LOOPS, COMBINED)] == [threads] * 3
    shown = loops[COMBINED]["threads"]  # the per-thread figures' count (the cores)
    said = f"the original runs it with {threads} thread(s) (measured by the profile run)"
    assert any(said in w for w in loops[COMBINED]["warnings"]) == (threads != shown)


def test_an_if_clause_that_is_false_runs_the_loop_on_one_thread(env, capsys):
    # the counting loop is written 'parallel for if (in.n > 1000)'
    loops = analyze("-t 3 -n 500", capsys)
    assert loops[COMBINED]["team"] == 1
    assert [loops[line]["team"] for line in REGION_LOOPS] == [3, 3]


def test_the_static_analysis_alone_measures_no_team(env, capsys):
    assert main(["analyze", str(PROGRAM), "--json"]) == 0
    assert all(lp["team"] is None for lp in json.loads(capsys.readouterr().out)["loops"])


def baseline_and_static(args: str, capsys) -> tuple[float, dict[int, float], list[dict]]:
    argv = ["rank", str(PROGRAM), "--args", args, "--loop", str(COMBINED)]
    argv += ["--schedules", "static", "--chunks", "none", "--threads", "1,2", "--json"]
    assert main(argv) == 0
    (loop,) = json.loads(capsys.readouterr().out)["files"][0]["loops"]
    static = {v["threads"]: v["predicted_s"] for v in loop["variants"]}
    return loop["baseline_predicted_s"], static, loop["equivalent"]


def test_the_model_predicts_the_loop_as_written_with_its_measured_team(env, capsys):
    """The loop as written (static, no clause) is the static variant at the team the
    program chose, whatever the machine's cores: that variant is the loop as written
    (not measured again), and the original's prediction is the variant's."""
    one, static_one, same_one = baseline_and_static("-t 1 -n 50000", capsys)
    two, static_two, same_two = baseline_and_static("-t 2 -n 50000", capsys)
    assert sorted(static_one) == [2] and sorted(static_two) == [1]
    as_written = {"equivalent_to": "baseline", "rule": "the loop as written"}
    assert {"key": "static,-,t1", **as_written} in same_one
    assert {"key": "static,-,t2", **as_written} in same_two
    assert one == pytest.approx(static_two[1], rel=1e-12)
    assert two == pytest.approx(static_one[2], rel=1e-12)
    assert one != pytest.approx(two, rel=1e-3)


def test_the_region_step_tries_every_count_but_the_measured_one(env, capsys):
    """relax()'s region runs with the program's one thread: the count as written is 1,
    so one thread per core is a count to try, and 1 is not."""
    f = tune_json(capsys, PROGRAM, "--args", "-t 1 -n 50000")
    (region,) = f["regions"]
    # on its one thread every schedule runs the iterations in order: none is measured
    loops = {int(lp["id"].rsplit(":", 1)[1]): lp for lp in f["loops"]}
    for line in REGION_LOOPS:
        assert not [v for v in loops[line]["variants"] if v["status"] == "ok"]
        assert "one thread runs the iterations in order" in loops[line]["reason"]
    cores = detect_machine().cores
    assert [x["threads"] for x in region["tries"]] == [
        t for t in default_thread_counts(cores) if t != 1
    ]


def test_a_profile_made_under_other_openmp_settings_is_not_reused(env, capsys, monkeypatch):
    """OMP_NUM_THREADS=1 gives the loop a team of one: a profile run made then is not
    the profile of a run under the default team."""
    for name in [k for k in os.environ if k.startswith(("OMP_", "GOMP_"))]:
        monkeypatch.delenv(name)
    heat = Path(__file__).parent / "data" / "c" / "runtime" / "heat_flags.c"
    argv = ["analyze", str(heat), "--args", "-n 200 -s 2", "--json"]
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    assert main(argv) == 0
    one = json.loads(capsys.readouterr().out)
    monkeypatch.delenv("OMP_NUM_THREADS")
    assert main(argv) == 0
    default = json.loads(capsys.readouterr().out)
    assert [lp["team"] for lp in one["loops"]] == [1]
    assert any("made now" in note for note in default["profile"])
    assert [lp["team"] for lp in default["loops"]] == [detect_machine().cores]


def test_a_count_written_as_an_expression_is_the_team_the_run_measured(env, capsys):
    """num_threads(nthreads) with nthreads from the options: the variant at the measured
    team and the written schedule is the loop as written, not a variant to measure."""
    src = Path(__file__).parent / "data" / "c" / "runtime" / "num_threads_option.c"
    argv = ["rank", str(src), "--args", "3 200000", "--schedules", "static,dynamic"]
    argv += ["--chunks", "none", "--threads", "1,2,3", "--json"]
    assert main(argv) == 0
    (loop,) = json.loads(capsys.readouterr().out)["files"][0]["loops"]
    as_written = {"key": "static,-,t3", "equivalent_to": "baseline", "rule": "the loop as written"}
    assert as_written in loop["equivalent"]
    assert {v["key"] for v in loop["variants"]} == {
        "static,-,t1",
        "static,-,t2",
        "dynamic,-,t2",
        "dynamic,-,t3",
    }

"""Thread starts between teams: the libgomp fact the model counts, checked on the runtime,
and what it does to a loop's features and ranking."""

import dataclasses
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from autotune.analysis import analyze_file
from autotune.measure.machine import detect_machine
from autotune.models.features import loop_features
from autotune.models.teams import threads_started
from autotune.variants.space import BASELINE, Variant

DATA = Path(__file__).parent / "data" / "c" / "teams"


@pytest.fixture(scope="module")
def team_starts(tmp_path_factory):
    if shutil.which("gcc") is None:
        pytest.skip("gcc not installed")
    exe = tmp_path_factory.mktemp("teams") / "team_starts"
    cmd = ["gcc", "-O2", "-fopenmp", str(DATA / "team_starts.c"), "-o", str(exe)]
    subprocess.run(cmd, check=True)
    return exe


@pytest.mark.parametrize("a,b", [(4, 2), (4, 3), (3, 5), (2, 2), (4, 1), (1, 3)])
def test_libgomp_starts_what_the_model_counts(team_starts, a, b):
    """Alternating teams of a and b threads, 20 steps: the distinct threads that ran are
    the master, the first team's others, and the model's starts at every later pass."""
    steps = 20
    run = subprocess.run([str(team_starts), str(a), str(b), str(steps)], capture_output=True)
    distinct = int(run.stdout)
    first = max(a, b) - 1  # the first pass grows the pool to the larger team
    per_pass = sum(started for started, _ in threads_started([a, b]))
    assert distinct == 1 + first + (steps - 1) * per_pass


def _analyzed(name: str) -> list[dict]:
    """The loops ``autotune analyze --json`` reports for a test program."""
    out = subprocess.run(
        [sys.executable, "-m", "autotune", "analyze", str(DATA / name), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(out.stdout)
    return (data if isinstance(data, dict) else data[0])["loops"]


def test_the_analysis_finds_the_teams_a_time_step_starts():
    loops = {lp["line"]: lp for lp in _analyzed("adi_sweeps.c")}
    assert loops[22]["team_cycle"] == [None, "2"] and loops[22]["team_position"] == 0
    assert loops[26]["team_cycle"] == [None, "2"] and loops[26]["team_position"] == 1
    # a worksharing loop in a team started once, outside its sequential loop: no cycle
    assert loops[38]["team_cycle"] == [] and loops[38]["team_position"] == -1


def test_a_team_unlike_its_neighbours_pays_its_starts_in_the_features():
    machine = dataclasses.replace(detect_machine(), cores=16)
    unit = analyze_file(str(DATA / "adi_sweeps.c"), threads=16)
    rows = next(r for r in unit.loops if r.line == 22)  # beside a team of 2
    alone = dataclasses.replace(rows, team_cycle=[], team_position=-1)

    def extra(threads: int | None) -> float:
        """What the neighbouring team adds to the loop's runtime overhead."""
        variant = BASELINE if threads is None else Variant("static", None, threads)
        with_cycle = loop_features(rows, variant, machine).dispatch_overhead
        return with_cycle - loop_features(alone, variant, machine).dispatch_overhead

    # as written (16 beside 2: 14 starts a step), on 8 (6 starts), on 2 or 1 (none)
    assert extra(None) > 0 and extra(8) > 0
    # over each thread's share of the work: 14 starts against 1/16, 6 against 1/8
    assert extra(None) / extra(8) == pytest.approx((14 * 16) / (6 * 8))
    assert extra(2) == 0 and extra(1) == 0
    # 32 threads beyond 16 cores: every start waits for a core
    assert extra(32) > 5 * extra(None)
    norm = next(r for r in unit.loops if r.line == 38)  # its team is started once
    assert norm.team_position == -1


def test_the_teams_of_a_time_step_are_followed_through_its_calls():
    """A LULESH-style step calls one function per phase: each phase's loop runs beside
    the others' teams; a function called from two places has no one neighbourhood."""
    loops = {lp["function"]: lp for lp in _analyzed("leapfrog.c")}
    # force, velocity, position (num_threads(4)) from the step's call, energy under its if
    step = [None, None, "4", None]
    assert loops["calc_force"]["team_cycle"] == step
    assert [loops[f]["team_position"] for f in ("calc_force", "calc_velocity")] == [0, 1]
    assert loops["calc_position"]["team_position"] == 2
    assert loops["energy"]["team_cycle"] == [] and loops["energy"]["team_position"] == -1

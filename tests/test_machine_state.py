"""Decisions and the machine's load: other processes busy while autotune measures are
seen, said, and a whole-program gain measured then is not shipped."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from tune_support import CONTENDED

from autotune.analysis import analyze_file
from autotune.measure.build import BuildOptions
from autotune.measure.machine_state import Load, LoadWatch
from autotune.measure.sweep import SweepOptions
from autotune.tuning import confirm as confirm_mod
from autotune.tuning.confirm import Choice, ProgramCheck
from autotune.variants.space import Variant

pytestmark = pytest.mark.skipif(not Path("/proc/stat").exists(), reason="reads /proc/stat")


def test_other_processes_spinning_are_seen():
    spin = [sys.executable, "-c", "import time\nt = time.time()\nwhile time.time() - t < 4: pass"]
    procs = [subprocess.Popen(spin) for _ in range(2)]
    try:
        time.sleep(0.3)
        watch = LoadWatch().start()
        time.sleep(1.5)
        load = watch.stop()
    finally:
        for p in procs:
            p.kill()
            p.wait()
    assert load is not None and load.others_cores > 1.0, load
    assert "other processes used" in load.busy()
    assert "OMP_WAIT_POLICY" in load.busy() and load.to_dict()["wait_policy"]  # what was in force
    assert load.to_dict()["busy"] == load.busy()


def test_our_own_runs_are_not_counted_as_load():
    """The child's CPU time is ours: what is left for others is at most the machine's busy
    time over a window around the watch less the child's, whatever else loads the cores."""
    from autotune.measure.machine_state import _cpu_jiffies

    hz = os.sysconf("SC_CLK_TCK")
    outer0, own0 = _cpu_jiffies(), os.times()
    watch = LoadWatch().start()
    subprocess.run([sys.executable, "-c", "sum(i * i for i in range(6_000_000))"], check=True)
    load = watch.stop()
    outer1, own1 = _cpu_jiffies(), os.times()
    child_s = (own1.children_user + own1.children_system) - (
        own0.children_user + own0.children_system
    )
    busy_s = (outer1[0] - outer0[0]) / hz
    assert load is not None and child_s > 0.2
    assert load.others_cores * load.wall_s <= busy_s - child_s + 3 / hz, (load, busy_s, child_s)


class BusyWatch(LoadWatch):
    """The load of a machine where two other processes spin (as measured above)."""

    def stop(self) -> Load:
        return Load(wall_s=2.0, cores=2, others_cores=1.9, steal_share=0.0, loadavg=3.1)


def slower_original(monkeypatch) -> None:
    """A gain that holds whatever loads the machine: each whole-program run of the
    original (really built and run, its output checked) counts 0.5 s longer, so the
    decision under test, what a busy machine's gain may ship, always meets a gain."""
    import dataclasses

    real = confirm_mod.run_program

    def run(exe, **kw):
        res = real(exe, **kw)
        if "-whole-original" in Path(exe).name and res.status == "ok":
            res = dataclasses.replace(res, wall_s=res.wall_s + 0.5)
        return res

    monkeypatch.setattr(confirm_mod, "run_program", run)


def test_a_gain_measured_on_a_busy_machine_is_not_shipped(tmp_path, monkeypatch):
    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path / "cache"))
    src = tmp_path / "contended.c"
    src.write_text(CONTENDED)
    (loop,) = analyze_file(str(src)).loops
    monkeypatch.setattr(confirm_mod, "LoadWatch", BusyWatch)
    slower_original(monkeypatch)
    choice = [Choice(loop, Variant("static", None, 2), 1.0)]
    check = ProgramCheck(src, CONTENDED, BuildOptions(), SweepOptions(), runs=3)
    result = check.confirm(choice)
    assert result.busy and result.tuned is None and result.kept == []
    assert result.backed_off == [(loop.id, f"the machine was busy: {result.busy}")]
    assert "the machine was busy" in result.decision and "--allow-busy" in result.decision
    assert result.to_dict()["load"]["others_cores"] == 1.9
    allowed = ProgramCheck(
        src, CONTENDED, BuildOptions(), SweepOptions(), runs=3, allow_busy=True
    ).confirm(choice)
    assert not any("the machine was busy" in why for _, why in allowed.backed_off)
    assert allowed.kept and "although the machine was busy" in allowed.decision


def test_loop_figures_that_disagree_with_the_program_are_marked(tmp_path, monkeypatch):
    """A loop whose own timings promise a saving the whole program does not show (CG's
    "125x" loop that made the program slower) has its figures marked untrusted."""
    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path / "cache"))
    src = tmp_path / "contended.c"
    src.write_text(CONTENDED)
    (loop,) = analyze_file(str(src)).loops
    check = ProgramCheck(src, CONTENDED, BuildOptions(), SweepOptions(), runs=3, allow_busy=True)
    result = check.confirm([Choice(loop, Variant("static", None, 2), 500.0)])  # 500 s promised
    assert "promised 500 s [500, 500] saved per run" in result.disagree[loop.id]
    assert result.to_dict()["loop_figures_disagree"] == result.disagree
    (tried,) = result.agreement  # what was promised against the program's saving
    assert tried["loops"] == [loop.id] and tried["promised_s"] == 500.0
    low, mid, high = tried["saved_s"]
    assert low <= mid <= high < 500.0 and tried["agrees"] is False


def test_tune_on_a_busy_machine_ships_nothing_and_says_so(tmp_path, monkeypatch, capsys):
    """``autotune tune --apply`` as a user runs it, the machine's load read as two other
    processes spinning: the gain is found, not shipped, and the exit status says why."""
    from autotune.cli.main import main

    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("AUTOTUNE_DB", str(tmp_path / "results.db"))
    monkeypatch.setattr(confirm_mod, "LoadWatch", BusyWatch)
    slower_original(monkeypatch)
    src, out = tmp_path / "contended.c", tmp_path / "tuned.c"
    src.write_text(CONTENDED)
    args = ["tune", str(src), "--apply", str(out), "--schedules", "static", "--threads", "2"]
    args += ["--repetitions", "2", "--confirm-runs", "3", "-q"]
    assert main(args) == 3
    captured = capsys.readouterr()
    assert "the machine was busy" in captured.err and "the original is kept" in captured.err
    assert "(exit 3; --busy keep exits 0)" in captured.err
    assert "--allow-busy" in captured.out
    assert not out.exists() or out.read_text() == CONTENDED
    assert main([*args, "--busy", "keep"]) == 0  # the same decision, a script goes on
    kept = capsys.readouterr()
    assert "the original is kept" in kept.err and "exit 3" not in kept.err
    assert not out.exists() or out.read_text() == CONTENDED
    assert main([*args, "--allow-busy"]) == 0
    assert out.read_text() != CONTENDED and "although the machine was busy" in (
        capsys.readouterr().out
    )


def test_untrusted_loop_figures_neither_judge_the_model_nor_pass_unmarked(tmp_path, monkeypatch):
    """A real tune, then its chosen loop's own figures inflated a thousandfold (as CG's
    instrumented loop claimed 125x): the whole program contradicts them, so the loop's
    figures are marked, its model quality withdrawn, and the report says so."""
    from autotune.frontend.options import SourceOptions
    from autotune.measure.outcomes import Outcome
    from autotune.measure.store import Store
    from autotune.report.html import LoopSection, ReportData, render
    from autotune.tuning.pipeline import RankOptions, TuneOptions, rank_file, tune_file
    from autotune.tuning.program_choice import confirm_results

    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path / "cache"))
    src = tmp_path / "contended.c"
    src.write_text(CONTENDED)
    ranked = rank_file(
        str(src), SourceOptions(), RankOptions(schedules="static,dynamic", threads="2")
    )
    sweep_opts = SweepOptions(repetitions=2)
    with Store(tmp_path / "r.db") as store:
        out = tune_file(
            ranked, BuildOptions(), sweep_opts, store, TuneOptions(top=2, confirm_runs=3)
        )
    (res,) = out.results
    ok = [v for v in res.ranking.variants if v.status == "ok" and v.measured_s]
    res.best = min(ok, key=lambda v: v.measured_s)
    res.baseline.measured_s = 1000.0 * res.best.measured_s  # the loop figures' claim
    res.baseline.times_s = [1000.0 * t for t in res.best.times_s]
    res.figures_note = ""
    check = ProgramCheck(src, CONTENDED, BuildOptions(), sweep_opts, runs=3, allow_busy=True)
    confirmation, _ = confirm_results(check, [res], cores=2)
    assert res.id in confirmation.disagree
    doc = res.to_dict()
    assert doc["figures_valid"] is False and doc["quality"] is None
    assert "not trusted" in doc["figures_note"] and "not trusted" in doc["decision"]
    outcome = Outcome("tune", str(src), "", "h", "f", "m", res.id, doc)
    page = render(ReportData("r.db", {"tune": [LoopSection(outcome, "contended")]}))
    assert "Loop timings not trusted" in page and "quality is not judged" in page

"""Decisions on intervals: a speedup is taken only when its whole confidence interval
clears 1 + the margin; figures a fraction of a percent apart decide nothing."""

from __future__ import annotations

from autotune.measure.intervals import MARGIN, ratio_interval
from autotune.tuning.confirm import ProgramRuns
from autotune.tuning.region_threads import RegionResult, RegionTry, _decide

ORIGINAL = [0.3657, 0.3679, 0.3641, 0.3702, 0.3668]


def test_the_interval_holds_the_ratio_and_is_reproducible():
    faster = [t / 1.5 for t in ORIGINAL]
    iv = ratio_interval(ORIGINAL, faster)
    assert iv is not None and iv.low <= iv.ratio <= iv.high
    assert abs(iv.ratio - 1.5) < 1e-9 and iv.faster()
    assert ratio_interval(ORIGINAL, faster) == iv  # seeded: the same runs, the same interval
    assert ratio_interval([1.0], [0.5, 0.6]) is None  # one run cannot show anything


def test_figures_a_fraction_apart_are_within_the_noise():
    # BT's region: 0.6% apart, once called "7.35x faster"
    close = [0.3679, 0.3691, 0.3650, 0.3688, 0.3672]
    iv = ratio_interval(ORIGINAL, close)
    assert not iv.faster() and not iv.slower()
    assert iv.low < 1.0 < iv.high or iv.high < 1 + MARGIN


def test_a_region_count_with_overlapping_intervals_ships_nothing():
    region = RegionResult("bt.c:302", [])
    for threads, factor in ((1, 1.003), (2, 0.997), (4, 1.006)):
        runs = ProgramRuns([t * factor for t in ORIGINAL])
        region.tries.append(RegionTry(threads, runs, list(ORIGINAL)))
    decision = _decide(region, 1.0)
    assert region.threads is None and decision.startswith("kept as written")
    assert "interval" in decision


def test_a_region_count_is_kept_when_its_interval_clears_what_was_reached():
    region = RegionResult("r.c:10", [])
    region.tries.append(RegionTry(2, ProgramRuns([t / 1.4 for t in ORIGINAL]), list(ORIGINAL)))
    region.tries.append(RegionTry(4, ProgramRuns([t / 1.1 for t in ORIGINAL]), list(ORIGINAL)))
    assert "num_threads(2)" in _decide(region, 1.0) and region.threads == 2
    again = RegionResult("r.c:10", [], tries=list(region.tries))
    assert _decide(again, 1.39).startswith("kept as written")  # 1.4x does not beat 1.39x


def test_tune_prints_and_stores_each_speedup_with_its_interval(tmp_path, monkeypatch, capsys):
    """``autotune tune`` on a real kernel: every measured variant's speedup in the table
    and in --json carries its bootstrap interval."""
    import json
    from pathlib import Path

    from autotune.cli.main import main

    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("AUTOTUNE_DB", str(tmp_path / "results.db"))
    kernel = str(Path(__file__).parent.parent / "kernels" / "triangular.c")
    args = [kernel, "-D", "N=300", "--threads", "1,2", "--schedules", "static,dynamic"]
    args += ["--repetitions", "3", "--confirm-runs", "3", "--top", "2", "-q", "--min-share", "0"]
    args += ["--allow-busy"]
    assert main(["tune", *args]) == 0
    out = capsys.readouterr().out
    assert "speedup [95% interval]" in out
    assert main(["tune", *args, "--json"]) == 0
    (loop,) = json.loads(capsys.readouterr().out)["files"][0]["loops"]
    measured = [v for v in loop["variants"] if v["status"] == "ok" and v["runs"] >= 2]
    assert measured
    for v in measured:
        iv = v["speedup_interval"]
        assert iv["low"] <= iv["ratio"] <= iv["high"], v

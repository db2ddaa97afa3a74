"""The run-time selection build against the loop as written: measured before the search,
and a loop it runs differently gets binaries of its own (real gcc, real runs)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from autotune.analysis import analyze_file
from autotune.cli.main import main
from autotune.measure.build import BuildOptions
from autotune.measure.store import Store
from autotune.measure.sweep import Sweep, SweepOptions
from autotune.tuning.runtime_build import twin_variant
from autotune.variants.space import Variant

RELAX = Path(__file__).parent / "data" / "c" / "twin" / "relax_small.c"


def test_the_twin_is_the_loop_as_written():
    (loop,) = analyze_file(str(RELAX), threads=2).loops
    assert twin_variant(loop) == Variant("static", None, None)  # no clause: static, default


@pytest.mark.slow
def test_tune_measures_the_original_against_its_runtime_twin(env, capsys):
    args = ["tune", str(RELAX), "--allow-busy", "--top", "2", "--json", "--args", "20000"]
    assert main(args) == 0
    (loop,) = json.loads(capsys.readouterr().out)["files"][0]["loops"]
    check = loop["runtime_build"]
    assert check["twin"] == "static,-,t-" and check["status"] == "ok"
    assert check["twin_s"] > 0
    iv = check["original_over_twin"]
    assert iv["low"] <= iv["ratio"] <= iv["high"]
    # the switch follows the interval: own binaries exactly when it clears the margin
    clears = iv["high"] < 1 / 1.03 or iv["low"] > 1.03
    assert check["own_binaries"] == clears
    assert loop["measured_programs"] >= 2  # the original and its twin at least
    # the table's count: the twin is said beside the programs, not counted among them
    assert main(args[:-3] + ["--args", "20000"]) == 0  # as text, from the stored runs
    text = capsys.readouterr().out
    counts = re.search(r"measured (\d+) of (\d+) programs \((\d+) pruned by the model\)", text)
    assert counts is not None, text
    measured, total, pruned = map(int, counts.groups())
    assert measured == loop["measured_programs"] - 1 and measured + pruned <= total, text
    assert "and the loop as written in the one build of every schedule" in text
    assert "the one build that takes every variant's schedule at run time" in text


def test_a_loop_given_its_own_binaries_is_measured_in_them(env):
    (loop,) = analyze_file(str(RELAX), threads=2).loops
    with Store(str(env / "s.db")) as store:
        # a floor far above the run: on a loaded 2-core machine two spinning threads may
        # take many times the original's 0.06 s, and the test is about the binaries
        opts = SweepOptions(repetitions=1, run_args=["2000"], timeout_floor_s=300.0)
        sweep = Sweep(RELAX, BuildOptions(), opts, store)
        before = sweep.measure_loop(loop, [Variant("dynamic", 4, 2)])
        assert before.mode == "runtime"
        sweep.use_own_binaries(loop)
        after = sweep.measure_loop(loop, [Variant("dynamic", 4, 2)])
        assert after.mode == "per-variant"
        (vr,) = after.variants
        assert vr.ok and vr.resumed == 0  # measured again, in a binary of its own

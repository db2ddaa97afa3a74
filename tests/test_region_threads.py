"""Thread counts per parallel region: never varied per loop, chosen for the region as a
whole on the whole program's time, and refused where the region's code depends on it."""

from __future__ import annotations

from pathlib import Path

import pytest
from tune_support import output_of, tune_json

from autotune.analysis import analyze_file
from autotune.errors import UserError
from autotune.measure.machine import detect_machine
from autotune.tuning.confirm import ProgramRuns
from autotune.tuning.region_threads import RegionTry
from autotune.variants.apply import apply_variants
from autotune.variants.space import Variant, default_thread_counts

DATA = Path(__file__).parent / "data" / "c"


def test_tune_chooses_the_regions_thread_count_on_the_whole_program(env, capsys):
    src = DATA / "regress" / "region_dominant.c"
    out = env / "tuned.c"
    f = tune_json(capsys, src, apply=out)
    for lp in f["loops"]:  # per-loop measurements never vary the region's thread count
        assert all(v["threads"] is None for v in lp["variants"])
    (region,) = f["regions"]
    assert region["region"].endswith("region_dominant.c:17")
    cores = detect_machine().cores  # the count as written (no clause): never tried
    assert [x["threads"] for x in region["tries"]] == [
        t for t in default_thread_counts(cores) if t != cores
    ]
    assert all(x["status"] == "ok" for x in region["tries"])
    pragma = out.read_text().splitlines()[16]
    if region["threads"] is None:
        assert pragma.strip() == "#pragma omp parallel"
    else:
        assert pragma.strip() == f"#pragma omp parallel num_threads({region['threads']})"
    assert output_of(out, env / "t") == output_of(src, env / "o")


def test_a_region_whose_code_depends_on_the_count_is_never_given_one():
    path = DATA / "legality" / "manual_reduction.c"
    summed, counted = analyze_file(str(path)).loops
    assert summed.tunable and counted.tunable
    loop = counted  # its critical counts the threads that took part, once per thread
    assert not loop.region_threads
    with pytest.raises(UserError, match="kept as written"):
        apply_variants(path.read_text(), [(loop, Variant(None, None, 2))])


def test_shared_regions_are_marked_for_region_tuning():
    loops = analyze_file(str(DATA / "legality" / "independent_nowait.c")).loops
    assert [lp.region_threads for lp in loops] == [True, True]
    text = apply_variants(
        (DATA / "legality" / "independent_nowait.c").read_text(),
        [(loops[0], Variant(None, None, 3)), (loops[1], Variant(None, None, 3))],
    )
    assert "#pragma omp parallel num_threads(3)" in text


@pytest.mark.slow
def test_the_teams_of_a_time_step_get_one_count_together(env, capsys):
    """Two parallel loops per step: a count for both at once, on the whole program (each
    loop's own thread variants pay the starts the other team's count causes)."""
    src = DATA / "teams" / "jacobi_steps.c"
    out = env / "tuned.c"
    f = tune_json(capsys, src, apply=out)
    (step,) = [g for g in f["regions"] if g["kind"] == "step"]
    assert step["region"].endswith("jacobi_steps.c:15")
    assert [lp.rsplit(":", 1)[1] for lp in step["loops"]] == ["17", "20"]
    cores = detect_machine().cores
    assert [x["threads"] for x in step["tries"]] == [
        t for t in default_thread_counts(cores) if t != cores
    ]
    assert all(x["status"] == "ok" for x in step["tries"]) and step["decision"]
    lines = out.read_text().splitlines()
    pragmas = [lines[15].strip(), lines[18].strip()]  # the two loops' directives
    assert all(p.startswith("#pragma omp parallel for") for p in pragmas)
    if step["threads"] is not None:  # both teams get the count
        assert all(p.endswith(f"num_threads({step['threads']})") for p in pragmas)
    else:  # each loop keeps its clause, or gets its own winner's count (guided,1024,t2)
        for p, loop in zip(pragmas, f["loops"], strict=True):
            threads = (loop["best"] or {}).get("threads")
            assert ("num_threads" in p) == (threads is not None), (p, loop["best"])
            assert threads is None or p.endswith(f"num_threads({threads})")
    assert output_of(out, env / "t") == output_of(src, env / "o")


def test_a_count_whose_later_run_was_not_verified_shows_no_speedup():
    """Its first runs were timed, then one printed what the original's own runs did not
    agree on: those times are no speedup of a verified program (Rodinia particlefilter's
    'num_threads(1): 0.700x' beside 'not-verified')."""
    timed = [1.0, 1.1, 0.9]
    done = RegionTry(1, ProgramRuns(times_s=list(timed)), original_s=[0.7, 0.8, 0.75])
    assert done.interval is not None and done.to_dict()["speedup_interval"] is not None
    failed = RegionTry(1, ProgramRuns(times_s=list(timed), status="not-verified"), [0.7, 0.8])
    assert failed.interval is None and failed.to_dict()["speedup_interval"] is None

"""The legality gate, driven as a user would: analyze and tune on C files written in the
style of real codes, each holding a trap that a schedule or thread change would spring."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from autotune.cli.main import main

DATA = Path(__file__).parent / "data" / "c" / "legality"

# file -> {loop line: (tunable, dimensions kept, words the reason must contain)}
EXPECTED = {
    "nowait_chain.c": {
        16: (False, {"schedule", "threads"}, "nowait chain"),
        19: (False, {"schedule", "threads"}, "nowait chain"),
    },
    # the master copies a probe point before the barrier: correct only while the master
    # thread's static share holds it, which the team size decides
    "nowait_probe.c": {
        23: (False, {"schedule", "threads"}, "line 25 is code a thread runs on its own")
    },
    # a master resets the reduction's variable with no barrier before the loop: a race,
    # which a schedule variant of the copy loop beside it made print another result
    "master_reset.c": {
        23: (False, {"schedule", "threads"}, "line 20 is code a thread runs on its own"),
        28: (False, {"schedule", "threads"}, "any change in how the region's threads run"),
    },
    # a stencil's time steps chained by nowait: its neighbours' edges of the step before
    # may not be written yet (a race as written); with the barrier the steps may vary
    "time_levels.c": {
        19: (False, {"schedule", "threads"}, "another iteration of the other writes"),
        30: (True, set(), ""),
    },
    # one region per time step: the corrector reads the step before's plane, which the
    # region before finished; not a race (a loop variable outside the region is one value)
    "step_regions.c": {
        22: (False, {"schedule", "threads"}, "in a nowait chain with lines 22, 25"),
        25: (False, {"schedule", "threads"}, "in a nowait chain with lines 22, 25"),
    },
    # a loop of commutative updates under a lock commutes; a list filled under one does not
    "lock_merge.c": {
        23: (True, set(), ""),
        35: (False, {"schedule", "threads"}, "assigns touched at line 39 from shared state"),
    },
    # the same cell at the same iteration of every step, but steps of growing length: the
    # static schedule hands it to another thread the next step
    "growing_front.c": {
        19: (False, {"schedule", "threads"}, "trip counts or static schedules may differ")
    },
    # a flux loop chunked for the cache, the update loop after it not: two mappings
    "chunked_chain.c": {
        21: (False, {"schedule", "threads"}, "trip counts or static schedules may differ"),
        24: (False, {"schedule", "threads"}, "trip counts or static schedules may differ"),
    },
    # one counter updated under an atomic and under a critical: they do not exclude each
    # other; one critical name throughout (a count beside the bin) commutes
    "mixed_locks.c": {
        23: (False, {"schedule", "threads"}, "update the same element of hist"),
        37: (True, set(), ""),
    },
    # a sum and a count under the team's OpenMP lock commute; a lock of each iteration's
    # own excludes nothing
    "lock_sum.c": {
        27: (True, set(), ""),
        36: (False, {"schedule", "threads"}, "omp_set_lock()"),
    },
    # one lock per bin, each count under its bin's lock; a count of the next bin under
    # this bin's lock is not guarded
    "lock_bins.c": {
        25: (True, set(), ""),
        34: (False, {"schedule", "threads"}, "omp_set_lock()"),
    },
    # an orphaned flux loop with nowait and the residual loop after it, which has none:
    # both lean on one static mapping (a dynamic residual loop printed other norms)
    "orphan_stages.c": {
        18: (False, {"schedule", "threads"}, "nowait chain with lines 18, 21 of compute_rhs()"),
        21: (False, {"schedule", "threads"}, "nowait chain with lines 18, 21 of compute_rhs()"),
        29: (True, {"threads"}, "orphaned"),
    },
    # a called step whose nowait chain races as written: the region calling it keeps its
    # own loop too; the step with barriers leaves it free
    "orphan_race.c": {
        17: (False, {"schedule", "threads"}, "another iteration of the other writes"),
        20: (False, {"schedule", "threads"}, "another iteration of the other writes"),
        29: (True, {"threads"}, "orphaned"),
        32: (True, {"threads"}, "orphaned"),
        42: (False, {"schedule", "threads"}, "calls step_nowait()"),
        55: (True, {"threads"}, "calls step()"),
    },
    # helpers called beside a nowait loop: a master copying a probe of the global grid,
    # one resetting the inflow cell of the grid it is passed (a write through it), and
    # one zeroing the wall's flux before the loop that reads it (no barrier after it);
    # and a master's memset of cells a nowait loop before it reads
    "probe_call.c": {
        46: (False, {"schedule", "threads"}, "line 48 is code a thread runs on its own"),
        53: (False, {"schedule", "threads"}, "line 55 is code a thread runs on its own"),
        61: (False, {"schedule", "threads"}, "line 59 is code a thread runs on its own"),
        68: (False, {"schedule", "threads"}, "line 70 is code a thread runs on its own"),
    },
    # a push loop's lastprivate, and a packing loop's linear cursor, copied out at its
    # end, read by the next loop's last iteration after nowait: the same thread runs
    # both only under the static mapping (a dynamic next loop printed another total)
    "lastprivate_chain.c": {
        26: (False, {"schedule", "threads"}, "nowait chain with lines 26, 35"),
        35: (False, {"schedule", "threads"}, "nowait chain with lines 26, 35"),
        42: (False, {"schedule", "threads"}, "nowait chain with lines 42, 51"),
        51: (False, {"schedule", "threads"}, "nowait chain with lines 42, 51"),
    },
    # a step that returns once converged, skipping its barrier: its nowait residual loop
    # may still run when the region's next loop reads the residuals (a dynamic one
    # printed three other sums in three runs)
    "converged_return.c": {
        20: (False, {"schedule", "threads"}, "no barrier after it before its function"),
        31: (True, {"threads"}, "orphaned"),
        46: (False, {"schedule", "threads"}, "runs after relax()"),
    },
    # the same in one region: the sweep loop breaks out before its barrier, and the loop
    # after it reads the residuals of the nowait loop before the break
    "converged_break.c": {
        26: (False, {"schedule", "threads"}, "nowait chain with lines 26, 41"),
        37: (True, {"threads"}, "tuned for the region as a whole"),
        41: (False, {"schedule", "threads"}, "nowait chain with lines 26, 41"),
    },
    # a barrier under a switch, and one in sweeps that may be none: no barrier on the
    # default path, and the loop after each reads a nowait loop's rows (dynamic variants
    # printed other sums)
    "conditional_barrier.c": {
        35: (False, {"schedule", "threads"}, "nowait chain with lines 35, 41"),
        41: (False, {"schedule", "threads"}, "nowait chain with lines 35, 41"),
        47: (False, {"schedule", "threads"}, "nowait chain with lines 47, 55"),
        55: (False, {"schedule", "threads"}, "nowait chain with lines 47, 55"),
    },
    "print_loop.c": {10: (False, {"schedule", "threads"}, "printf()")},
    # a static local of the region is one object for the team; the automatic one is not
    "static_scratch.c": {
        23: (False, {"schedule", "threads"}, "same element of norm"),
        33: (True, set(), ""),
    },
    "critical_append.c": {15: (False, {"schedule", "threads"}, "critical section at line 17")},
    "counter_index.c": {12: (False, {"schedule", "threads"}, "atomic capture")},
    "thread_id.c": {13: (False, {"schedule", "threads"}, "omp_get_thread_num()")},
    "tid_private.c": {16: (False, {"schedule", "threads"}, "depends on the thread")},
    "shared_flags.c": {15: (True, set(), "")},
    # per-thread partial sums combined in ways that see each thread's share: a sum of
    # squares, a slot per thread, one thread's share, another copy squared, a product
    "combine_traps.c": {
        line: (False, {"schedule", "threads"}, "other than in a combining update")
        for line in (20, 30, 39, 50, 61)
    },
    # counts transformed differently from thread to thread before they are summed: steps
    # that follow the thread's own counts, a map the master applies alone, a thread's slot
    "linear_map_traps.c": {
        line: (False, {"schedule", "threads"}, "other than in a combining update")
        for line in (22, 39, 55)
    },
    # NAS LU's wavefront (blts): rows spin-wait with flush on flags the row before sets,
    # and the planes chain by nowait with static schedules that keep each row's thread
    "lu_pipeline.c": {
        22: (False, {"schedule", "threads"}, "share data with no barrier between them"),
        27: (False, {"schedule", "threads"}, "'#pragma omp flush(flag)' at line 30"),
    },
    "last_writer.c": {16: (False, {"schedule", "threads"}, "same element of where")},
    "carried_private.c": {13: (False, {"schedule", "threads"}, "acc is read at line 14")},
    "region_threads.c": {15: (True, {"threads"}, "atomic"), 18: (True, {"threads"}, "atomic")},
    "independent_nowait.c": {
        17: (True, {"threads"}, "also runs the loops at lines 20"),
        20: (True, {"threads"}, "also runs the loops at lines 17"),
    },
    "manual_reduction.c": {26: (True, set(), ""), 37: (True, {"threads"}, "critical")},
    # a combiner the program declares: the first of equal maxima in combine order, a
    # complex sum
    "declared_reduction.c": {
        33: (False, set(), "operator the program declares"),
        39: (False, set(), "operator the program declares"),
    },
    # a hand-partitioned step: each thread's cyclic share walks with the name the
    # worksharing loops reuse (a private function-scope i; a new int k per loop): their
    # own variable holds their iteration, not the thread's number
    "thread_strided.c": {
        26: (True, {"threads"}, "omp_get_thread_num()"),
        33: (True, {"threads"}, "omp_get_thread_num()"),
        44: (True, {"threads"}, "omp_get_thread_num()"),
    },
    # t read before a later declaration of t in its block is the thread's; first carries
    # a thread's number out of a loop header's int k = t; a cyclic update with no
    # barrier before the loop reading it races as written
    "thread_strided_traps.c": {
        22: (False, {"schedule", "threads"}, "reads t"),
        31: (False, {"schedule", "threads"}, "reads first"),
        41: (False, {"schedule", "threads"}, "no barrier between them"),
    },
}


def analyze_json(path: Path, capsys) -> dict[int, dict]:
    assert main(["analyze", str(path), "--json"]) == 0
    return {lp["line"]: lp for lp in json.loads(capsys.readouterr().out)["loops"]}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_analyze_reports_what_the_gate_keeps_and_why(name, capsys):
    loops = analyze_json(DATA / name, capsys)
    assert sorted(loops) == sorted(EXPECTED[name])
    for line, (tunable, kept, words) in EXPECTED[name].items():
        lp = loops[line]
        assert lp["tunable"] is tunable, (name, line, lp["reason"])
        assert set(lp["kept"]) == kept, (name, line, lp["kept"])
        text = lp["reason"] + " ".join(lp["kept"].values())
        assert words in text, (name, line, text)


def test_analyze_table_says_schedule_only_and_why(capsys):
    assert main(["analyze", str(DATA / "manual_reduction.c")]) == 0
    out = capsys.readouterr().out
    assert "schedule only" in out and "threads kept as written" in out
    assert "local is a per-thread partial sum combined after the loop" in out  # regrouped


def test_floating_point_reduction_is_allowed_and_said(capsys):
    loops = analyze_json(DATA / "nowait_chain.c", capsys)
    assert any("floating-point reduction(+:sum)" in n for n in loops[19]["reassociates"])


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_exhaustive_tune_finds_no_wrong_output(name, env, capsys):
    """Every variant the gate lets through is measured and verified: none is wrong."""
    rc = main(
        [
            "tune",
            str(DATA / name),
            "--exhaustive",
            "--repetitions",
            "1",
            "--json",
            "-q",
            "--allow-busy",
        ]
    )
    assert rc == 0
    loops = json.loads(capsys.readouterr().out)["files"][0]["loops"]
    for lp in loops:
        tunable, kept, _ = EXPECTED[name][int(lp["id"].rsplit(":", 1)[1])]
        statuses = [v["status"] for v in lp["variants"]]
        assert "wrong-output" not in statuses, (lp["id"], lp["variants"])
        if not tunable:
            assert statuses == [] and lp["best"] is None
            continue
        assert statuses and "pruned" not in statuses
        for v in lp["variants"]:
            if "threads" in kept:
                assert v["threads"] is None
            if "schedule" in kept:
                assert v["schedule"] is None


def test_the_gate_also_judges_loops_sized_at_run_time(tmp_path):
    """A loop whose size only a profile run knows still gets the gate's verdict, so a
    stored variant can never be applied to it past the gate."""
    from autotune.analysis import analyze_file
    from autotune.errors import UserError
    from autotune.variants.apply import apply_variants
    from autotune.variants.space import Variant

    src = tmp_path / "p.c"
    src.write_text("""#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 10;
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        printf("%d\\n", i);
    return 0;
}
""")
    (loop,) = analyze_file(str(src)).loops
    assert not loop.tunable and not loop.only_size_unknown
    assert "printf" in loop.reason and set(loop.kept) == {"schedule", "threads"}
    with pytest.raises(UserError, match="not tunable"):
        apply_variants(src.read_text(), [(loop, Variant("dynamic", 1, None))])

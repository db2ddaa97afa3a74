"""The runtime-equivalence rules, checked on the installed OpenMP runtime.

A probe program records which thread runs each iteration of a
``schedule(runtime)`` loop (and of a loop with no schedule clause). For
static schedules the mapping is deterministic, so variants the rules call
equivalent must give the same mapping; for dynamic and guided, every chunk
boundary a thread shows must fall where fixed-size chunks would put it.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from autotune.frontend.records import Clauses, Directive, LoopRecord
from autotune.measure.omp_runtime import openmp_runtime
from autotune.variants.equivalence import canonical, collapse
from autotune.variants.space import BASELINE, Variant, default_space

PROBE = r"""#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
static volatile double sink;
static void work(int i)
{
    double s = 0;
    for (int k = 0; k < 2000 + (i % 7) * 300; k++) s += k;
    sink = s;
}
int main(int argc, char **argv)
{
    int n = atoi(argv[1]);
    int *owner = malloc(sizeof(int) * n);
    if (argv[2][0] == 'r') {
#pragma omp parallel for schedule(runtime)
        for (int i = 0; i < n; i++) { work(i); owner[i] = omp_get_thread_num(); }
    } else {
#pragma omp parallel for
        for (int i = 0; i < n; i++) { work(i); owner[i] = omp_get_thread_num(); }
    }
    for (int i = 0; i < n; i++) printf("%d ", owner[i]);
    printf("\n");
    free(owner);
    return 0;
}
"""

pytestmark = pytest.mark.skipif(
    openmp_runtime() != "libgomp",
    reason="the rules are libgomp's; another runtime collapses nothing",
)


@pytest.fixture(scope="module")
def probe(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("probe")
    (d / "probe.c").write_text(PROBE)
    subprocess.run(
        ["gcc", "-O1", "-fopenmp", str(d / "probe.c"), "-o", str(d / "probe")], check=True
    )
    return d / "probe"


def owners(probe: Path, n: int, threads: int, schedule: str | None) -> list[int]:
    env = dict(os.environ, OMP_NUM_THREADS=str(threads), OMP_DYNAMIC="false")
    if schedule is not None:
        env["OMP_SCHEDULE"] = schedule
    out = subprocess.run(
        [str(probe), str(n), "runtime" if schedule else "plain"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    return [int(x) for x in out.split()]


def env_text(v: Variant) -> str:
    return v.schedule if v.chunk is None else f"{v.schedule},{v.chunk}"


def boundaries(own: list[int]) -> set[int]:
    """Iterations where a thread's run of consecutive iterations starts."""
    return {i for i in range(1, len(own)) if own[i] != own[i - 1]}


@pytest.mark.parametrize(
    "n,variant",
    [
        (100, Variant("auto", None, 3)),
        (120, Variant("static", 40, 3)),  # trips a multiple of threads: static's own blocks
        (5, Variant("static", None, 8)),  # more threads than iterations
        (5, Variant("static", 2, 8)),
        (30, Variant("static", 64, 2)),  # one chunk
    ],
)
def test_static_equivalences_give_the_same_mapping(probe, n, variant):
    canon, rule = canonical(variant, n)
    assert canon != variant and rule
    assert owners(probe, n, variant.threads, env_text(variant)) == owners(
        probe, n, canon.threads, env_text(canon)
    )


def test_the_rule_is_not_vacuous(probe):
    """static,c with c != trips/threads is a different mapping, and is kept apart."""
    v = Variant("static", 30, 3)
    assert canonical(v, 120)[0] == v
    assert owners(probe, 120, 3, "static,30") != owners(probe, 120, 3, "static")


def test_no_schedule_clause_runs_static(probe):
    for n, t in ((100, 3), (7, 2), (64, 4)):
        assert owners(probe, n, t, None) == owners(probe, n, t, "static")


@pytest.mark.parametrize("chunk", [16, 25])
def test_guided_with_a_large_chunk_hands_out_fixed_chunks(probe, chunk):
    n, t = 100, 4  # ceil(100/4) = 25 <= chunk
    assert (
        canonical(Variant("guided", chunk, t), n)[0] == Variant("dynamic", chunk, t) or chunk < 25
    )
    for _ in range(3):
        for sched in (f"guided,{chunk}", f"dynamic,{chunk}"):
            own = owners(probe, n, t, sched)
            if chunk >= 25:
                assert all(b % chunk == 0 for b in boundaries(own)), (sched, own)
    if chunk < 25:  # guided hands out ceil(rest/threads), at least the chunk: 25, 19, 16...
        starts, rest = set(), n
        while rest > 0:
            rest -= min(rest, max(-(-rest // t), chunk))
            starts.add(n - rest)
        for _ in range(3):  # which thread takes a chunk varies; where chunks start does not
            got = boundaries(owners(probe, n, t, f"guided,{chunk}"))
            assert got <= starts and not all(b % chunk == 0 for b in starts), (got, starts)


def _record(trips: int, schedule: str | None = None) -> LoopRecord:
    clauses = Clauses(schedule=schedule)
    d = Directive(
        f"omp parallel for{' schedule(' + schedule + ')' if schedule else ''}",
        "parallel for",
        "k.c",
        3,
        clauses,
    )
    return LoopRecord("k.c:4", "k.c", 4, "main", d, d, trip_count=trips)


def test_collapse_keeps_one_of_each_class_and_names_it():
    rec = _record(1000)
    space = default_space(rec, 2)
    keep, same = collapse(rec, space, "libgomp")
    assert len(keep) + len(same) == len(space) and same
    keys = {v.key for v in keep}
    assert "auto,-,t2" not in keys and "static,-,t2" in keys
    for e in same:
        if e.same_as == BASELINE:  # the loop as written (no clause: static)
            assert canonical(e.variant, 1000)[0] == Variant("static", None, e.variant.threads)
        else:
            assert e.same_as.key in keys
            assert canonical(e.variant, 1000)[0] == canonical(e.same_as, 1000)[0]
    assert collapse(rec, space, "libomp") == (space, [])


def test_one_thread_runs_every_schedule_in_order():
    """On one thread a hand-out only adds its cost: the schedules of one thread are one
    class, and a team of one as written (measured) makes them the loop as written."""
    canon, rule = canonical(Variant("dynamic", 4, 1), 1000)
    assert canon == Variant("static", None, 1) and "one thread" in rule
    assert canonical(Variant("guided", None, 2), 1000)[0] == Variant("guided", 1, 2)
    variants = [
        Variant(s, c, t) for s in ("static", "dynamic") for c in (None, 8) for t in (None, 1, 2)
    ]
    keep, same = collapse(_record(1000), variants, "libgomp")
    assert [v for v in keep if v.threads == 1] == [Variant("static", None, 1)]
    assert len([v for v in keep if v.threads is None]) == 3  # static,8, dynamic, dynamic,8
    alone = _record(1000)
    alone.team = 1  # the profile run measured a team of one (omp_set_num_threads(1))
    keep, same = collapse(alone, variants, "libgomp")
    assert all(v.threads == 2 for v in keep) and len(keep) == 4
    written = [e for e in same if e.same_as == BASELINE]
    assert len(written) == 8 and all(e.rule.startswith("the loop as written") for e in written)
    assert any("one thread" in e.rule for e in written)

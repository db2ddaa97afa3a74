"""The variant space: defaults sized for the machine, command-line spaces, parsing."""

from __future__ import annotations

import pytest

from autotune.errors import UserError
from autotune.frontend.records import Directive, LoopRecord
from autotune.variants import space
from autotune.variants.space import (
    Variant,
    chunk_sizes,
    default_space,
    parse_chunks,
    parse_schedules,
    parse_threads,
    space_from_options,
)


def _record(trip: int | None = 1000, *, tunable: bool = True, orphan: bool = False) -> LoopRecord:
    d = Directive("omp parallel for", "parallel for", "x.c", 3)
    if orphan:
        d = Directive("omp for", "for", "x.c", 3)
    return LoopRecord(
        id="x.c:4",
        file="x.c",
        line=4,
        function="f",
        directive=d,
        parallel=None if orphan else d,
        trip_count=trip,
        tunable=tunable,
    )


@pytest.mark.parametrize("cores", [1, 2, 4, 8, 16, 64])
@pytest.mark.parametrize("trip", [1, 7, 1000, 10**7, None])
def test_default_space_is_sensible(cores: int, trip: int | None) -> None:
    vs = default_space(_record(trip), cores)
    assert 1 <= len(vs) <= space.MAX_SPACE
    assert len(set(vs)) == len(vs)
    threads = {v.threads for v in vs}
    assert 2 * cores in threads and 1 in threads and cores in threads
    assert sum(v.schedule == "auto" for v in vs) == 1
    assert not any(v.is_baseline for v in vs)
    per_thread = trip if trip is not None else space.UNKNOWN_TRIP
    for v in vs:
        assert v.schedule in space.SCHEDULES
        if v.chunk is not None:
            assert v.chunk & (v.chunk - 1) == 0  # power of two
            assert v.chunk <= max(1, per_thread // v.threads)


def test_default_space_two_cores_covers_all_schedules_and_chunks() -> None:
    vs = default_space(_record(1000), 2)
    assert {v.threads for v in vs} == {1, 2, 4}
    assert 30 <= len(vs) <= 80
    for t in (2, 4):
        for s in ("static", "dynamic", "guided"):
            chunks = {v.chunk for v in vs if v.threads == t and v.schedule == s}
            assert None in chunks and 1 in chunks
            assert max(c for c in chunks if c) == 1 << ((1000 // t).bit_length() - 1)


def test_not_tunable_gets_nothing() -> None:
    assert default_space(_record(tunable=False), 2) == []
    assert space_from_options(_record(tunable=False), ["static"], [4], [2], 2) == []


def test_orphaned_omp_for_does_not_vary_threads() -> None:
    vs = default_space(_record(orphan=True), 2)
    assert vs and {v.threads for v in vs} == {None}
    # asked for thread counts anyway: the loop keeps its region's (the reason is the loop's)
    asked = space_from_options(_record(orphan=True), None, None, [2], 2)
    assert asked and {v.threads for v in asked} == {None}


def test_chunk_sizes_thinned_but_keep_both_ends() -> None:
    assert chunk_sizes(16, 2) == [1, 2, 4, 8]
    assert chunk_sizes(1, 2) == []
    big = chunk_sizes(10**6, 2, limit=4)
    assert len(big) == 4 and big[0] == 1 and big[-1] == 1 << 18


def test_space_from_options_cross_product() -> None:
    r = _record(1000)
    vs = space_from_options(r, ["static", "dynamic", "auto"], [None, 8, 64], [1, 2], 2)
    # auto takes no chunk: once per thread count
    assert len(vs) == 2 * (2 * 3 + 1)
    assert Variant("dynamic", 64, 1) in vs and Variant("auto", None, 2) in vs
    assert not any(v.schedule == "auto" and v.chunk is not None for v in vs)
    # omitted lists take the defaults: chunks bounded by the trip count per thread
    vs = space_from_options(r, ["guided"], None, [4], 2)
    assert {v.chunk for v in vs} == {None, *chunk_sizes(1000, 4)}
    assert space_from_options(r, None, None, None, 2) == default_space(r, 2)


def test_parsing_helpers() -> None:
    assert parse_schedules("static, Dynamic,static") == ["static", "dynamic"]
    assert parse_chunks("none,1,8,-,64") == [None, 1, 8, 64]
    assert parse_threads("1,2,4") == [1, 2, 4]
    for bad, fn in [
        ("static,fast", parse_schedules),
        ("runtime", parse_schedules),
        ("1,0", parse_chunks),
        ("x", parse_chunks),
        ("", parse_threads),
        ("2,,4", parse_threads),
        ("-3", parse_threads),
        ("2.5", parse_threads),
    ]:
        with pytest.raises(UserError):
            fn(bad)


def test_variant_keys_round_trip() -> None:
    for v in default_space(_record(1000), 2):
        assert Variant.from_key(v.key) == v


def test_space_from_options_accepts_option_strings() -> None:
    r = _record(1000)
    assert space_from_options(r, "static,dynamic", "none,8", "2", 2) == space_from_options(
        r, ["static", "dynamic"], [None, 8], [2], 2
    )
    with pytest.raises(UserError):
        space_from_options(r, "stat", None, None, 2)


def test_a_variant_reads_in_words_in_messages():
    """Messages name a variant in words; ``key`` stays the form options take."""
    assert Variant("dynamic", 16, 2).label == "dynamic,16 on 2 threads"
    assert Variant(None, None, 2).label == "2 threads"
    assert Variant(None, None, 1).label == "1 thread"
    assert Variant("static", None, None).label == "static"
    assert Variant("guided", 8, None, "spread").label == "guided,8, bound spread"
    assert Variant(None, None, None).label == "as written"
    assert Variant(None, None, 2).key == "-,-,t2"

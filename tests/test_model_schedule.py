"""Schedule simulator against hand-computed libgomp distributions."""

import numpy as np
import pytest

from autotune.models.schedule_sim import guided_chunk_sizes, normalize_schedule, simulate


def test_static_blocks_10_iterations_3_threads():
    r = simulate(10, 3, "static")
    assert r.thread_iters.tolist() == [4, 3, 3]
    assert r.max_chunk_iters == 4
    assert r.dispatches == 3
    assert r.imbalance == pytest.approx(4 / (10 / 3))


def test_static_fewer_iterations_than_threads():
    r = simulate(2, 4, "static")
    assert r.thread_iters.tolist() == [1, 1, 0, 0]
    assert r.dispatches == 2


def test_static_chunk_2_round_robin():
    # chunks {0,1}->t0 {2,3}->t1 {4,5}->t2 {6,7}->t0 {8,9}->t1
    r = simulate(10, 3, "static", 2, work=np.arange(10.0))
    assert r.thread_iters.tolist() == [4, 4, 2]
    assert r.thread_chunks.tolist() == [2, 2, 1]
    assert r.thread_work.tolist() == [0 + 1 + 6 + 7, 2 + 3 + 8 + 9, 4 + 5]
    assert r.max_chunk_iters == 2


def test_dynamic_balances_uneven_work_static_does_not():
    work = [5, 1, 1, 1, 1, 1]
    dyn = simulate(6, 2, "dynamic", 1, work)
    # t0 takes the 5-unit iteration; t1 runs the five 1-unit ones meanwhile.
    assert dyn.thread_work.tolist() == [5, 5]
    assert dyn.thread_iters.tolist() == [1, 5]
    assert dyn.imbalance == pytest.approx(1.0)
    st = simulate(6, 2, "static", None, work)
    assert st.thread_work.tolist() == [7, 3]
    assert st.imbalance == pytest.approx(1.4)


def test_dynamic_chunk_2_greedy():
    work = [4, 4, 1, 1, 1, 1, 1, 1]  # chunk works 8, 2, 2, 2
    r = simulate(8, 2, "dynamic", 2, work)
    assert r.thread_work.tolist() == [8, 6]
    assert r.thread_chunks.tolist() == [1, 3]
    assert r.imbalance == pytest.approx(8 / 7)


def test_dynamic_default_chunk_is_one():
    r = simulate(7, 2, "dynamic")
    assert r.dispatches == 7
    assert r.max_chunk_iters == 1
    assert r.thread_iters.tolist() == [4, 3]


def test_guided_chunk_sequence_follows_libgomp():
    # q = max(ceil(remaining / p), c), capped at remaining
    assert guided_chunk_sizes(100, 2, 7).tolist() == [50, 25, 13, 7, 5]
    assert guided_chunk_sizes(10, 3).tolist() == [4, 2, 2, 1, 1]
    r = simulate(10, 3, "guided")
    # t0 takes 4; t1, t2 take 2 each, finish first and take the last two.
    assert r.thread_iters.tolist() == [4, 3, 3]
    assert r.max_chunk_iters == 4
    assert r.dispatches == 5


def test_triangular_work_static_worse_than_dynamic_and_guided():
    work = np.arange(1000.0)
    st = simulate(1000, 2, "static", None, work).imbalance
    dyn = simulate(1000, 2, "dynamic", 1, work).imbalance
    gd = simulate(1000, 2, "guided", None, work).imbalance
    # static: second half holds 3/4 of the work
    assert st == pytest.approx(2 * work[500:].sum() / work.sum())
    assert dyn < 1.01 and gd < st


def test_grouped_dynamic_close_to_exact_and_dispatches_exact():
    rng = np.random.default_rng(1)
    work = rng.exponential(1.0, 20000)
    exact = simulate(20000, 3, "dynamic", 1, work, max_events=10**6)
    approx = simulate(20000, 3, "dynamic", 1, work, max_events=500)
    assert approx.approximate and not exact.approximate
    assert approx.dispatches == exact.dispatches == 20000
    group_work = work.sum() / 500 * 2  # bound: about one group's work
    assert abs(approx.thread_work.max() - exact.thread_work.max()) <= group_work


def test_schedule_names():
    assert normalize_schedule(None) == "static"
    assert normalize_schedule("auto") == "static"
    assert normalize_schedule("runtime") == "dynamic"
    assert normalize_schedule("nonmonotonic:dynamic") == "dynamic"
    with pytest.raises(ValueError):
        normalize_schedule("fancy")


@pytest.mark.parametrize("args", [(10, 0, "static"), (-1, 2, "static"), (10, 2, "dynamic", 0)])
def test_bad_arguments(args):
    with pytest.raises(ValueError):
        simulate(*args)


def test_work_length_must_match():
    with pytest.raises(ValueError):
        simulate(5, 2, "static", None, [1.0, 2.0])


def _naive(n, p, kind, c, work):
    """Reference: explicit chunk list, explicit first-free-thread dispatch."""
    if kind == "static" and c is None:
        q, r = divmod(n, p)
        sizes = [q + 1 if t < r else q for t in range(p)]
        owners = list(range(p))
    else:
        sizes, rem = [], n
        while rem > 0:
            if kind == "guided":
                q = min(max(-(-rem // p), c or 1), rem)
            else:
                q = min(c or 1, rem)
            sizes.append(q)
            rem -= q
        owners = []
        free = [0.0] * p
        pos = 0
        for k, s in enumerate(sizes):
            if kind == "static":
                t = k % p
            else:
                t = min(range(p), key=lambda i: (free[i], i))
            owners.append(t)
            free[t] += sum(work[pos : pos + s])
            pos += s
    tw, ti, tc = [0.0] * p, [0] * p, [0] * p
    pos = 0
    for s, t in zip(sizes, owners, strict=True):
        tw[t] += sum(work[pos : pos + s])
        ti[t] += s
        tc[t] += 1 if s else 0
        pos += s
    return tw, ti, tc


@pytest.mark.parametrize("seed", range(12))
def test_fast_paths_match_naive_reference(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 60))
    p = int(rng.integers(1, 6))
    kind = ["static", "dynamic", "guided"][seed % 3]
    c = [None, 1, 3, 7][seed // 3 % 4]
    for work in (None, rng.integers(1, 20, n).astype(float)):
        ref = _naive(n, p, kind, c, [1.0] * n if work is None else work.tolist())
        r = simulate(n, p, kind, c, work)
        assert r.thread_work.tolist() == pytest.approx(ref[0])
        assert r.thread_iters.tolist() == ref[1]
        assert r.thread_chunks.tolist() == ref[2]
        assert r.dispatches == sum(ref[2])


def test_processor_sharing_makespan_by_hand():
    from autotune.models.schedule_sim import processor_sharing_makespan

    # 3 equal threads on 2 cores: each at speed 2/3 -> 1.5
    assert processor_sharing_makespan(np.array([1.0, 1.0, 1.0]), 2) == pytest.approx(1.5)
    # speeds 1/2 until t=2, 2/3 until t=5, then 1: the longest ends at 9
    assert processor_sharing_makespan(np.array([7.0, 1.0, 5.0, 3.0]), 2) == pytest.approx(9.0)
    assert processor_sharing_makespan(np.array([4.0, 2.0]), 2) == pytest.approx(4.0)


def test_core_imbalance_oversubscribed_static():
    r = simulate(4, 4, "static", None, [1.0, 3.0, 5.0, 7.0])
    assert r.imbalance == pytest.approx(7 / 4)
    assert r.core_imbalance(2) == pytest.approx(9 / 8)
    assert r.core_imbalance(8) == pytest.approx(r.imbalance)  # enough cores

"""What a thread count other than its neighbours' costs under libgomp.

libgomp keeps the threads of the last team in a pool. A team larger than the one
before it starts the difference as new threads (``pthread_create``); a smaller one
lets the surplus exit; a team of one leaves the pool alone. So a loop whose team runs
in a sequential loop beside other teams (a time step with two ``parallel for``, as
stencils and solvers write it) pays thread starts at every step when its thread count
differs from theirs: on the recorded 16-core sweeps gramschmidt's loop ran 10-27 ms on
4 or 8 threads beside a 16-thread sibling, 2.5-4.9 ms on 16 and 1.5 ms on 1, and
32 threads (an oversubscribed start, 16 new threads each step) 0.6 s. Counted with
``strace`` on this project's 2-core machine (gcc 12's libgomp), 100 steps of two
alternating teams: 4 and 2 threads start 201 threads, 8 and 4 403, 4 and 3 102, 4 and 1
three, 2 and 2 one (the first team's).

The cost is per execution of the loop, in the weighted-op units of
``features.overhead_cost_ops``: a start costs about 8 microseconds (thread creation
and its first wake-up), and when the new team outnumbers the cores, as much as an
oversubscribed region (the new thread waits for a core the others spin on).
"""

from __future__ import annotations

from collections.abc import Sequence

from autotune.frontend.records import LoopRecord

THREAD_START_OPS = 8000.0  # one new thread, team within the cores
THREAD_START_OVERSUBSCRIBED_OPS = 60000.0  # one new thread, team beyond the cores


def threads_started(teams: Sequence[int]) -> list[tuple[int, int]]:
    """(threads started, size of the team started) at each team of one pass through a
    cycle of team sizes, the pass after it repeating: teams of one are skipped."""
    sizes = [t for t in teams if t > 1]
    if len(sizes) < 2:
        return []
    before = sizes[-1:] + sizes[:-1]
    return [(b - a, b) for a, b in zip(before, sizes, strict=True) if b > a]


def start_cost_ops(record: LoopRecord, sizes: Sequence[int], threads: int, cores: int) -> float:
    """Thread-start cost of one execution of ``record`` run on ``threads`` threads, the
    other teams of its sequential loop as written (``sizes``: each team's thread count,
    in ``record.team_cycle``'s order)."""
    if record.team_position < 0 or len(sizes) < 2:
        return 0.0
    sizes = list(sizes)
    sizes[record.team_position] = threads
    cost = 0.0
    for started, size in threads_started(sizes):
        per = THREAD_START_OVERSUBSCRIBED_OPS if size > cores else THREAD_START_OPS
        cost += started * per
    return cost

"""How libgomp deals the iterations of one loop run to threads, simulated cheaply.

The power-law model's load-imbalance and dispatch features need to know which
iterations each thread gets under ``static``, ``static,c``, ``dynamic,c`` and
``guided,c`` -- without compiling or running anything. The rules follow
libgomp (GCC 12, ``libgomp/iter.c`` and the open-coded static schedule):

- ``static`` without chunk: q = n // p, r = n % p; threads 0..r-1 get q+1
  consecutive iterations, the others q (10 iterations, 3 threads: 4, 3, 3).
- ``static,c``: chunks of c consecutive iterations dealt round-robin, chunk k to
  thread k mod p.
- ``dynamic,c`` (c defaults to 1): chunks of c iterations handed to whichever
  thread asks first. Simulated as greedy list scheduling on equal-speed threads
  that all start at time 0 (ties go to the lower thread id); a chunk's duration
  is its summed ``work``. With uniform work this is exactly round-robin.
- ``guided,c`` (c defaults to 1): each request takes
  q = max(ceil(remaining / p), c) iterations, capped at what remains -- the
  formula of ``gomp_iter_guided_next``. Chunks go to threads greedily, like
  dynamic.

``auto`` is treated as ``static`` (GCC lowers it so) and ``runtime`` as
libgomp's default run-sched-var ``dynamic,1`` (OMP_SCHEDULE cannot be known at
ranking time).

Greedy simulation of millions of tiny dynamic chunks would be slow, so when a
dynamic schedule has more than ``max_events`` chunks and non-uniform work,
consecutive chunks are merged into groups and the groups are simulated; the
error of a thread's load is at most one group's work. Dispatch counts stay
exact.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from autotune.analysis.libgomp import guided_chunk_sizes

SCHEDULES = ("static", "dynamic", "guided")


def normalize_schedule(kind: str | None) -> str:
    """Map a schedule kind as written (with modifiers) to one we simulate."""
    if kind is None:
        return "static"
    k = kind.strip().lower()
    if ":" in k:  # "nonmonotonic:dynamic", "monotonic:static"
        k = k.split(":")[-1].strip()
    if k in ("auto", "static", ""):
        return "static"
    if k == "runtime":
        return "dynamic"
    if k in SCHEDULES:
        return k
    raise ValueError(f"unknown OpenMP schedule kind {kind!r}")


@dataclass
class ScheduleResult:
    """Outcome of dealing n iterations to p threads under one schedule."""

    schedule: str  # normalised kind: static | dynamic | guided
    chunk: int | None  # chunk argument (None = the schedule's default)
    threads: int
    n: int  # iterations distributed
    thread_work: np.ndarray  # summed work per thread
    thread_iters: np.ndarray  # iterations per thread
    thread_chunks: np.ndarray  # chunk dispatches per thread
    dispatches: int  # total chunks handed out
    max_chunk_iters: int  # largest chunk (iterations) any thread gets
    approximate: bool = False  # True when dynamic chunks were grouped

    @property
    def imbalance(self) -> float:
        """max thread work / mean thread work (1 = perfectly balanced; p = serial)."""
        mean = float(self.thread_work.mean()) if self.threads else 0.0
        if mean <= 0.0:
            return 1.0
        return float(self.thread_work.max()) / mean

    def core_imbalance(self, cores: int) -> float:
        """Makespan on ``cores`` cores over the balanced time total / min(p, cores).

        Threads beyond the cores time-share them; modelled as fair processor
        sharing (k runnable threads on c < k cores each run at speed c/k), so
        4 threads with works 1, 3, 5, 7 on 2 cores finish at 9 (not 7), against
        a balanced 8. Equals ``imbalance`` when threads <= cores.
        """
        total = float(self.thread_work.sum())
        if total <= 0.0:
            return 1.0
        c = max(1, min(cores, self.threads))
        return processor_sharing_makespan(self.thread_work, c) / (total / c)


def processor_sharing_makespan(thread_work: np.ndarray, cores: int) -> float:
    """Finish time of threads with these works fairly sharing ``cores`` cores."""
    w = np.sort(np.asarray(thread_work, dtype=float))
    p = len(w)
    active = p - np.arange(p)  # runnable threads while the i-th smallest finishes
    rate = np.minimum(1.0, cores / active)
    return float(np.sum(np.diff(w, prepend=0.0) / rate))


def _chunk_work(work: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """Summed work of consecutive chunks with the given sizes (few chunks)."""
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    return np.add.reduceat(work, starts)


def _padded(work: np.ndarray, length: int) -> np.ndarray:
    if length == len(work):
        return work
    out = np.zeros(length)
    out[: len(work)] = work
    return out


def _greedy(durations: np.ndarray, threads: int) -> np.ndarray:
    """Index of the thread that takes each chunk under first-come dispatch."""
    owner = np.empty(len(durations), dtype=np.int64)
    heap = [(0.0, t) for t in range(threads)]
    for k, d in enumerate(durations.tolist()):
        finish, t = heapq.heappop(heap)
        owner[k] = t
        heapq.heappush(heap, (finish + d, t))
    return owner


def _by_owner(owner: np.ndarray, values: np.ndarray, threads: int) -> np.ndarray:
    return np.bincount(owner, weights=values, minlength=threads)[:threads]


def _fixed_sizes(n: int, c: int) -> np.ndarray:
    """Sizes of ceil(n/c) chunks of c iterations, the last one partial."""
    nchunks = -(-n // c)
    sizes = np.full(nchunks, c, dtype=np.int64)
    sizes[-1] = n - c * (nchunks - 1)
    return sizes


def _round_robin_fixed(
    n: int, p: int, c: int, w: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(work, iterations, chunks) per thread when chunk k of c iterations goes to k mod p.

    One pass over the work array (reshaped to rounds x threads x chunk), no
    per-chunk arrays, so ``static,1`` on a million iterations stays cheap.
    """
    nchunks = -(-n // c)
    tc = np.full(p, nchunks // p, dtype=float)
    tc[: nchunks % p] += 1
    ti = tc * c
    ti[(nchunks - 1) % p] -= c * nchunks - n  # the last chunk is partial
    if w is None:
        return ti.copy(), ti, tc
    rounds = -(-nchunks // p)
    tw = _padded(w, rounds * p * c).reshape(rounds, p, c).sum(axis=(0, 2))
    return tw, ti, tc


def simulate(
    n: int,
    threads: int,
    schedule: str | None = "static",
    chunk: int | None = None,
    work: Sequence[float] | np.ndarray | None = None,
    max_events: int = 4096,
) -> ScheduleResult:
    """Deal ``n`` iterations to ``threads`` threads; ``work[i]`` is iteration i's cost.

    ``work`` None means every iteration costs 1. Returns per-thread work,
    iterations and dispatch counts (see the module docstring for the rules).
    """
    if n < 0:
        raise ValueError("iteration count must be >= 0")
    if threads < 1:
        raise ValueError("thread count must be >= 1")
    if chunk is not None and chunk < 1:
        raise ValueError("chunk size must be >= 1")
    kind = normalize_schedule(schedule)
    p = threads
    w = None if work is None else np.asarray(work, dtype=float)
    if w is not None and len(w) != n:
        raise ValueError(f"work has {len(w)} entries for {n} iterations")
    if n == 0:
        z = np.zeros(p)
        return ScheduleResult(kind, chunk, p, 0, z, z.copy(), z.copy(), 0, 0)

    if kind == "static" and chunk is None:
        return _static_blocks(n, p, w)
    if kind == "guided":
        return _guided(n, p, chunk, w)
    c = min(chunk if chunk is not None else 1, n)
    if kind == "static" or w is None:
        # static,c -- and dynamic,c with equal-duration chunks -- is round-robin.
        tw, ti, tc = _round_robin_fixed(n, p, c, w)
        return ScheduleResult(kind, chunk, p, n, tw, ti, tc, -(-n // c), c)
    return _dynamic_uneven(n, p, chunk, c, w, max_events)


def _static_blocks(n: int, p: int, w: np.ndarray | None) -> ScheduleResult:
    """``schedule(static)``: one contiguous block per thread, the first n % p one longer."""
    q, r = divmod(n, p)
    iters = np.array([q + 1 if t < r else q for t in range(p)], dtype=float)
    nonzero = iters[iters > 0].astype(np.int64)
    tw = iters.copy()
    if w is not None:
        tw[: len(nonzero)] = _chunk_work(w, nonzero)
    chunks = (iters > 0).astype(float)
    return ScheduleResult(
        "static", None, p, n, tw, iters, chunks, int(chunks.sum()), int(iters.max())
    )


def _guided(n: int, p: int, chunk: int | None, w: np.ndarray | None) -> ScheduleResult:
    """``schedule(guided)``: shrinking chunks, each to the thread that frees up first."""
    sizes = guided_chunk_sizes(n, p, chunk)
    cw = sizes.astype(float) if w is None else _chunk_work(w, sizes)
    owner = _greedy(cw, p)
    return ScheduleResult(
        "guided",
        chunk,
        p,
        n,
        _by_owner(owner, cw, p),
        _by_owner(owner, sizes.astype(float), p),
        _by_owner(owner, np.ones(len(sizes)), p),
        len(sizes),
        int(sizes.max()),
    )


def _dynamic_uneven(
    n: int, p: int, chunk: int | None, c: int, w: np.ndarray, max_events: int
) -> ScheduleResult:
    """``schedule(dynamic,c)`` with uneven work: greedy over chunks, or groups of g chunks."""
    nchunks = -(-n // c)
    g = max(1, -(-nchunks // max_events))
    ngroups = -(-nchunks // g)
    span = g * c
    gw = _padded(w, ngroups * span).reshape(ngroups, span).sum(axis=1)
    gi = _fixed_sizes(n, span).astype(float)
    gc = np.full(ngroups, float(g))
    gc[-1] = nchunks - g * (ngroups - 1)
    owner = _greedy(gw, p)
    return ScheduleResult(
        "dynamic",
        chunk,
        p,
        n,
        _by_owner(owner, gw, p),
        _by_owner(owner, gi, p),
        _by_owner(owner, gc, p),
        nchunks,
        c,
        approximate=g > 1,
    )

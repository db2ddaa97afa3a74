"""Distinct bytes a loop nest touches, in total and per thread, from plain data.

Every access is an index expression ``flat`` (the linearised subscript) over
its ``domain`` (the loop levels around it, outermost first, as JSON).  For
an affine ``flat`` the innermost loop level it uses becomes an arithmetic
progression per outer point; outer levels are materialised only when the
index or a deeper bound needs them.  The union of progressions that share
one stride is exact by sorting intervals per residue class; mixed strides
fall back to a bitmap or enumeration.  Non-affine subscripts are enumerated.
Indirect subscripts (``x[col[j]]``) count the whole array: an upper bound.

Distinct elements x element size; no cache-line rounding (documented in
docs/analysis.md).
"""

from __future__ import annotations

import math

import numpy as np

from autotune.analysis import exprs, polyfoot
from autotune.analysis.exprs import Symbolic
from autotune.analysis.libgomp import guided_chunk_sizes
from autotune.analysis.points import Points, TooLarge, split_runs

RUN_CAP = 2048  # chunks per thread computed exactly; more are extrapolated
ENUM_CAP = 20_000_000  # elements enumerated in the mixed-stride fallback
Runs = list[tuple[int, int]]


class Unknown(Exception):
    """The footprint of an access cannot be bounded."""


# ---- one access --------------------------------------------------------------
def progressions(
    acc: dict, collapse: int, runs: Runs | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(start, stride, count) arrays whose union is the elements ``acc`` touches."""
    dom, flat = acc["domain"], acc["flat"]
    aff = exprs.affine(flat) if acc["kind"] == "affine" else None
    used = exprs.free_vars(flat)
    below = _bound_vars_below(dom)
    levels_used = [i for i, lv in enumerate(dom) if lv["var"] in used]
    m = max(levels_used, default=-1)
    axis = None
    if (
        aff is not None
        and m >= collapse - 1
        and not dom[m].get("unknown")
        and dom[m]["var"] not in below[m]
    ):
        axis = m
    pts = Points(1)
    override: tuple[np.ndarray, np.ndarray] | None = None
    for i, lv in enumerate(dom):
        var = lv["var"]
        if lv.get("unknown"):
            if var and var in used:
                raise Unknown(f"{acc['text']}: index uses a data-dependent loop variable")
            continue
        if override is not None:  # ranges merged over the level above (see _merge_next)
            (start, cnt), override = override, None
        else:
            start, cnt = pts.counts(lv)
        if i == collapse - 1 and runs is not None:
            pts, start, cnt = split_runs(pts, start, cnt, lv["step"], runs)
        if i < collapse - 1:  # outer collapsed levels: needed for linear iteration numbers
            pts = pts.expand(var, start, cnt, lv["step"])
        elif i == axis:
            with np.errstate(all="ignore"):
                base = exprs.evaluate(flat, {**pts.columns, var: start})
            pts.payload["start"] = np.broadcast_to(np.asarray(base), (pts.n,)).astype(np.int64)
            pts.payload["stride"] = np.full(pts.n, aff[var] * lv["step"], dtype=np.int64)
            pts.payload["count"] = np.asarray(cnt, dtype=np.int64)
            pts = pts.filter(np.asarray(cnt) > 0)
        elif var in used or var in below[i]:
            merged = _merge_next(pts, dom, i, var, start, cnt, used, below)
            if merged is not None:
                pts, override = merged
                continue
            pts = pts.expand(var, start, cnt, lv["step"])
        else:
            pts = pts.filter(np.asarray(cnt) > 0)
    if axis is not None:
        return pts.payload["start"], pts.payload["stride"], pts.payload["count"]
    idx = np.asarray(pts.value(flat))
    if idx.dtype.kind == "f":
        idx = np.trunc(idx)
    idx = idx.astype(np.int64)
    return idx, np.zeros(pts.n, dtype=np.int64), np.ones(pts.n, dtype=np.int64)


def _merge_next(
    pts: Points,
    dom: list[dict],
    i: int,
    var: str,
    start: np.ndarray,
    cnt: np.ndarray,
    used: set[str],
    below: list[set[str]],
) -> tuple[Points, tuple[np.ndarray, np.ndarray]] | None:
    """A level whose variable only bounds the next one (``j <= i`` with the index in
    ``j`` alone): the footprint is the union over ``i`` of the next level's ranges,
    so merge those ranges instead of enumerating every (i, j) pair, which made a
    triangular nest's cost grow with its square. Exact; None when it does not apply.
    """
    if var in used or i + 1 >= len(dom) or pts.columns:
        return None
    nxt = dom[i + 1]
    if nxt.get("unknown") or nxt["step"] != 1 or var in below[i + 1]:
        return None
    if var not in exprs.free_vars(nxt["start"]) | exprs.free_vars(nxt["limit"]):
        return None
    outer = pts.expand(var, start, cnt, dom[i]["step"])
    lo, n = outer.counts(nxt)
    keep = n > 0
    lo, hi = np.asarray(lo, dtype=np.int64)[keep], (np.asarray(lo) + n)[keep].astype(np.int64)
    if len(lo) == 0:
        return Points(0), (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))
    order = np.argsort(lo, kind="stable")
    lo, hi = lo[order], hi[order]
    reach = np.maximum.accumulate(hi)
    new = np.r_[True, lo[1:] > reach[:-1]]  # a gap before this range: a new interval
    starts = lo[new]
    ends = np.maximum.reduceat(hi, np.nonzero(new)[0])
    return Points(len(starts)), (starts, ends - starts)


def _bound_vars_below(dom: list[dict]) -> list[set[str]]:
    out = [set() for _ in dom]
    acc: set[str] = set()
    for i in range(len(dom) - 1, -1, -1):
        out[i] = set(acc)
        lv = dom[i]
        if not lv.get("unknown"):
            acc |= exprs.free_vars(lv["start"]) | exprs.free_vars(lv["limit"])
    return out


# ---- unions ------------------------------------------------------------------
def union_size(start: np.ndarray, stride: np.ndarray, count: np.ndarray) -> int | None:
    """Number of distinct integers in the union of progressions; None if too costly."""
    if (count == 1).all():  # enumerated elements
        return count_distinct(start)
    keep = count > 0
    s, d, c = start[keep], stride[keep], count[keep]
    if len(s) == 0:
        return 0
    neg = d < 0
    s = np.where(neg, s + d * (c - 1), s)
    d = np.abs(d)
    d = np.where(c == 1, 0, d)
    pos = d[d > 0]
    if len(pos) == 0:
        return count_distinct(s)
    if (pos == pos[0]).all():
        g = int(pos[0])
        r = s % g
        q = s // g
        return _interval_union(r, q, q + np.where(d == 0, 1, c))
    return _mixed_union(s, d, c)


def _interval_union(r: np.ndarray, a: np.ndarray, b: np.ndarray) -> int:
    """Total length of the union of [a, b) intervals, grouped by ``r``."""
    order = np.lexsort((a, r))
    r, a, b = r[order], a[order], b[order]
    n = len(a)
    if r[0] == r[-1]:
        prev = np.empty(n, dtype=np.int64)
        prev[0] = a[0]
        prev[1:] = np.maximum.accumulate(b)[:-1]
    else:
        vals, inv = np.unique(np.concatenate([a, b]), return_inverse=True)
        k = len(vals)
        gid = np.cumsum(np.r_[True, r[1:] != r[:-1]]) - 1
        key = np.maximum.accumulate(gid * k + inv[n:])
        prev_key = np.r_[-1, key[:-1]]
        same = (prev_key >= 0) & (prev_key // k == gid)
        prev = np.where(same, vals[np.maximum(prev_key, 0) % k], a)
    return int(np.maximum(0, b - np.maximum(a, prev)).sum())


def _mixed_union(s: np.ndarray, d: np.ndarray, c: np.ndarray) -> int | None:
    lo = int(s.min())
    hi = int((s + d * (c - 1)).max())
    total = int(c.sum())
    if hi - lo + 1 <= 100_000_000:
        bitmap = np.zeros(hi - lo + 1, dtype=bool)
        big = c > 64
        for si, di, ci in zip(s[big] - lo, d[big], c[big], strict=True):
            bitmap[si : si + di * (ci - 1) + 1 : max(di, 1)] = True
        if (~big).any():
            bitmap[_enumerate(s[~big] - lo, d[~big], c[~big])] = True
        return int(bitmap.sum())
    if total <= ENUM_CAP:
        return count_distinct(_enumerate(s, d, c))
    return None


def count_distinct(x: np.ndarray) -> int:
    """Distinct values by sorting (faster than np.unique's hashing on big int arrays)."""
    if len(x) == 0:
        return 0
    lo, hi = int(x.min()), int(x.max())
    if hi - lo <= max(8 * len(x), 1 << 20) and hi - lo <= 100_000_000:
        seen = np.zeros(hi - lo + 1, dtype=bool)
        seen[x - lo] = True
        return int(np.count_nonzero(seen))
    x = np.sort(x)
    return int(1 + np.count_nonzero(x[1:] != x[:-1]))


def _enumerate(s: np.ndarray, d: np.ndarray, c: np.ndarray) -> np.ndarray:
    parent = np.repeat(np.arange(len(s)), c)
    t = np.arange(int(c.sum())) - np.repeat(np.cumsum(c) - c, c)
    return s[parent] + d[parent] * t


# ---- arrays ------------------------------------------------------------------
COUNTED = "counted by barvinok"  # the note of an affine array's exact, size-free count


def array_elements(arr: dict, collapse: int, runs: Runs | None) -> tuple[int | None, bool, str]:
    """(distinct elements, exact?, note) for one array over the given iterations; the
    note says how an exact figure was found when it was not by enumeration."""
    if runs is not None and not any(ln > 0 for _, ln in runs):
        return 0, True, ""
    extent = arr.get("extent")
    kinds = {a["kind"] for a in arr["accesses"]}
    if "unknown" in kinds:
        return None, False, "an index could not be analysed and the array size is unknown"
    if "whole" in kinds:
        if extent is None:
            return None, False, "indirect index and unknown array size"
        return int(extent), False, "indirect or data-dependent index: whole array (upper bound)"
    counted = polyfoot.elements(arr, collapse, runs)
    if counted is not None:  # affine: barvinok counts it, at any size
        return counted, True, COUNTED
    parts = []
    try:
        for acc in arr["accesses"]:
            parts.append(progressions(acc, collapse, runs))
    except (TooLarge, Symbolic, Unknown) as exc:
        if extent is not None:
            return int(extent), False, f"{exc}: whole array (upper bound)"
        return None, False, str(exc)
    start = np.concatenate([p[0] for p in parts])
    stride = np.concatenate([p[1] for p in parts])
    count = np.concatenate([p[2] for p in parts])
    n = union_size(start, stride, count)
    if n is None:
        bound = int(count.sum()) if extent is None else min(int(count.sum()), int(extent))
        return bound, False, "mixed strides over a large range: upper bound"
    return n, True, ""


def footprint(
    arrays: list[dict], collapse: int, runs: Runs | None
) -> tuple[int | None, list[tuple[int | None, bool, str]]]:
    """Total distinct bytes and the per-array (elements, exact, note)."""
    total: int | None = 0
    details = []
    for arr in arrays:
        n, exact, note = array_elements(arr, collapse, runs)
        details.append((n, exact, note))
        if n is None or arr.get("elem_size") is None:
            total = None
        elif total is not None:
            total += n * int(arr["elem_size"])
    return total, details


# ---- threads -----------------------------------------------------------------
def thread_chunks(
    trip: int, threads: int, schedule: str | None, chunk: int | None
) -> list[tuple[np.ndarray, np.ndarray]]:
    """(chunk starts, chunk lengths) per thread, in iteration numbers 0..trip-1.

    ``static`` without a chunk follows libgomp exactly (the first ``trip % p``
    threads get one extra iteration).  ``static,c`` is round-robin, exactly.
    ``dynamic`` and ``guided`` depend on timing; we assume round-robin
    hand-out of their chunk sequence (guided chunks shrink as libgomp's do).
    """
    p = max(1, threads)
    kind = (schedule or "static").lower()
    if kind in ("auto", "runtime"):
        kind, chunk = "static", None
    if kind == "static" and not chunk:
        q, r = divmod(trip, p)
        out = []
        for t in range(p):
            size = q + (1 if t < r else 0)
            first = t * q + min(t, r)
            out.append((np.array([first]), np.array([size])))
        return out
    c = max(1, int(chunk or 1))
    if kind == "guided":
        sizes = guided_chunk_sizes(trip, p, c)
    else:
        nchunks = -(-trip // c)
        sizes = np.full(nchunks, c, dtype=np.int64)
        if nchunks:
            sizes[-1] = trip - c * (nchunks - 1)
    starts = np.cumsum(sizes) - sizes
    return [(starts[t::p], sizes[t::p]) for t in range(p)]


def thread_chunk_samples(
    trip: int, threads: int, schedule: str | None, chunk: int | None, cap: int
) -> list[tuple[np.ndarray, np.ndarray, int]]:
    """Like ``thread_chunks`` but at most ``cap + 1`` chunks per thread, plus the
    thread's total iterations: a 16M-iteration ``dynamic,1`` loop must not build
    16M-element arrays just to rank one variant."""
    p = max(1, threads)
    kind = (schedule or "static").lower()
    uniform = kind in ("static", "dynamic") and chunk
    if not uniform:
        return [(st, sz, int(sz.sum())) for st, sz in thread_chunks(trip, p, schedule, chunk)]
    c = max(1, int(chunk))
    nchunks = -(-trip // c)
    out = []
    for t in range(p):
        mine = max(0, -(-(nchunks - t) // p))  # chunks t, t+p, t+2p, ... < nchunks
        idx = t + p * np.arange(min(mine, cap + 1), dtype=np.int64)
        starts = idx * c
        sizes = np.minimum(c, trip - starts)
        last = t + p * (mine - 1)
        total = (mine - 1) * c + min(c, trip - last * c) if mine else 0
        out.append((starts, sizes, int(total)))
    return out


def representative_threads(samples: list, keep: int | None) -> list[int]:
    """At most ``keep`` threads whose maximum stands for all: the first, the last, and
    the ones with most iterations (a triangular nest's heaviest rows are last)."""
    if keep is None or len(samples) <= keep:
        return list(range(len(samples)))
    busiest = sorted(range(len(samples)), key=lambda t: -samples[t][2])
    return sorted(list(dict.fromkeys([0, len(samples) - 1, *busiest]))[:keep])


def _counted_cyclic(
    arrays: list[dict], collapse: int, chunk: int, threads: int, chosen: list[int], trip: int
) -> dict[int, int] | None:
    """Each chosen thread's distinct bytes under a cyclic hand-out, counted by barvinok
    whatever the number of chunks, one count per array for all threads (None: some
    array is not affine; its chunks are then listed)."""
    totals = dict.fromkeys(chosen, 0)
    for arr in arrays:
        if arr.get("elem_size") is None:
            return None
        counts = polyfoot.elements_per_thread(arr, collapse, chunk, threads, chosen, trip)
        if counts is None:
            return None
        for t, n in zip(chosen, counts, strict=True):
            totals[t] += n * int(arr["elem_size"])
    return totals


def per_thread(
    arrays: list[dict],
    collapse: int,
    trip: int,
    threads: int,
    schedule: str | None,
    chunk: int | None,
    total: int | None = None,
    sample_threads: int | None = None,
    run_cap: int = RUN_CAP,
) -> tuple[int | None, bool]:
    """Max over threads of the distinct bytes each thread touches; (bytes, exact?).

    ``total`` (the whole loop's footprint) caps extrapolated estimates.
    ``sample_threads``/``run_cap`` bound the cost for ranking: only that many
    representative threads, and chunks beyond ``run_cap`` per thread extrapolated
    (the result is then not exact: the largest of the threads computed).
    """
    best: int | None = 0
    exact = True
    samples = thread_chunk_samples(trip, threads, schedule, chunk, run_cap)
    chosen = representative_threads(samples, sample_threads)
    if len(chosen) < len(samples):
        exact = False
    kind = (schedule or "static").lower()
    cyclic = kind in ("static", "dynamic") and bool(chunk)
    busy = [t for t in chosen if len(samples[t][0])]
    counted = (
        _counted_cyclic(arrays, collapse, int(chunk), max(1, threads), busy, trip)
        if cyclic
        else None
    )
    for t in busy:
        starts, sizes, thread_iters = samples[t]
        if counted is not None:
            best = max(best, counted[t])
            continue
        if len(starts) > run_cap:
            sample = list(zip(starts[:run_cap].tolist(), sizes[:run_cap].tolist(), strict=True))
            part, _ = footprint(arrays, collapse, sample)
            if part is None:
                return None, False
            est = math.ceil(part * thread_iters / max(1, int(sizes[:run_cap].sum())))
            if total is None:
                total = footprint(arrays, collapse, None)[0]
            value = est if total is None else min(est, total)
            exact = False
        else:
            runs = list(zip(starts.tolist(), sizes.tolist(), strict=True))
            value, details = footprint(arrays, collapse, runs)
            if value is None:
                return None, False
            exact = exact and all(d[1] for d in details)
        best = max(best, value)
    return best, exact

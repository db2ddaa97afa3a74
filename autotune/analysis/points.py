"""Sets of iteration points as numpy columns, expanded one loop level at a time.

Both the execution counter and the footprint counter walk a loop nest
outermost first.  A level's variable is materialised only when something
deeper needs its value (an inner bound, a subscript); otherwise its trip
count just multiplies the points' weights.  That keeps a 4000 x 4000 nest at
4000 points instead of 16 million.
"""

from __future__ import annotations

import numpy as np

from autotune.analysis import exprs
from autotune.analysis.exprs import Expr
from autotune.analysis.tripcount import counts

CAP = 4_000_000  # points beyond which an expansion is sampled (counting) or refused


class TooLarge(Exception):
    """An exact expansion would exceed the point budget."""


class Points:
    """``n`` points: variable columns, weights, and aligned payload columns."""

    def __init__(
        self,
        n: int,
        columns: dict[str, np.ndarray] | None = None,
        weight: np.ndarray | None = None,
        payload: dict[str, np.ndarray] | None = None,
    ):
        self.n = n
        self.columns = columns or {}
        self.weight = weight if weight is not None else np.ones(n)
        self.payload = payload or {}
        self.sampled = 1  # >1 when an expansion kept one point in ``sampled``

    def value(self, e: Expr) -> np.ndarray:
        """``e`` evaluated at every point (broadcast to length n)."""
        with np.errstate(all="ignore"):
            v = exprs.evaluate(e, self.columns)
        return np.broadcast_to(np.asarray(v), (self.n,))

    def counts(self, level: dict) -> tuple[np.ndarray, np.ndarray]:
        """(start values, trip counts) of a known level at every point."""
        start = self.value(level["start"])
        c = counts(start, self.value(level["limit"]), level["op"], level["step"])
        if c is None or (c < 0).any():
            raise exprs.Symbolic(f"loop over {level['var']} does not terminate as written")
        return start, c

    def take(self, idx: np.ndarray) -> Points:
        p = Points(
            len(idx),
            {k: v[idx] for k, v in self.columns.items()},
            self.weight[idx],
            {k: v[idx] for k, v in self.payload.items()},
        )
        p.sampled = self.sampled
        return p

    def filter(self, mask: np.ndarray) -> Points:
        return self if mask.all() else self.take(np.nonzero(mask)[0])

    def scaled(self, factor: np.ndarray | float) -> Points:
        p = Points(self.n, self.columns, self.weight * factor, self.payload)
        p.sampled = self.sampled
        return p

    def expand(
        self,
        var: str,
        start: np.ndarray,
        cnt: np.ndarray,
        step: int,
        cap: int = CAP,
        sample: bool = False,
    ) -> Points:
        """One point per (point, iteration); beyond ``cap`` sample or raise."""
        cnt = np.asarray(cnt, dtype=np.int64)
        total = int(cnt.sum())
        stride = 1
        if total > cap:
            if not sample:
                raise TooLarge(f"{total} iteration points to enumerate")
            stride = -(-total // cap)
        ends = np.cumsum(cnt)
        if stride == 1 and self.n == 1:  # common: the outermost level
            p = Points(
                total,
                {k: np.repeat(v, total) for k, v in self.columns.items()},
                np.full(total, self.weight[0]),
                {k: np.repeat(v, total) for k, v in self.payload.items()},
            )
            p.columns[var] = np.asarray(start)[0] + step * np.arange(total)
            p.sampled = self.sampled
            return p
        if stride == 1:
            parent = np.repeat(np.arange(self.n), cnt)
            t = np.arange(total) - np.repeat(ends - cnt, cnt)
        else:
            pos = np.arange(0, total, stride)
            parent = np.searchsorted(ends, pos, side="right")
            t = pos - (ends - cnt)[parent]
        p = self.take(parent)
        p.columns[var] = np.asarray(start)[parent] + step * t
        if stride > 1:
            p.weight = p.weight * stride
            p.sampled = self.sampled * stride
        return p


def split_runs(
    pts: Points, start: np.ndarray, cnt: np.ndarray, step: int, runs: list[tuple[int, int]]
) -> tuple[Points, np.ndarray, np.ndarray]:
    """Keep only the iterations numbered by ``runs`` at the last distributed level.

    ``pts`` enumerate the outer distributed levels in loop order, so point p
    owns the linear iteration numbers [off_p, off_p + cnt_p).  Each overlap
    of that range with a run becomes one point with its own (start, count).
    """
    cnt = np.asarray(cnt, dtype=np.int64)
    start = np.broadcast_to(np.asarray(start), cnt.shape)
    off = np.cumsum(cnt) - cnt
    rs = np.array([r[0] for r in runs], dtype=np.int64)
    re = rs + np.array([r[1] for r in runs], dtype=np.int64)
    order = np.argsort(rs, kind="stable")
    rs, re = rs[order], re[order]
    lo = np.searchsorted(re, off, side="right")
    hi = np.searchsorted(rs, off + cnt, side="left")
    k = np.maximum(hi - lo, 0)
    parent = np.repeat(np.arange(len(cnt)), k)
    ridx = lo[parent] + np.arange(int(k.sum())) - np.repeat(np.cumsum(k) - k, k)
    a = np.maximum(off[parent], rs[ridx])
    b = np.minimum(off[parent] + cnt[parent], re[ridx])
    keep = b > a
    parent, a, b = parent[keep], a[keep], b[keep]
    return pts.take(parent), start[parent] + step * (a - off[parent]), b - a

"""Skeleton cost formulas: T(n, p) = W(n, p) + Abar(n, p).

Lobachev and Loogen split a parallel run into the sequential work spread over
p PEs, W(n, p), and a per-PE parallel penalty Abar(n, p). The general form is
W = T(n)/p; each skeleton specialises W (section 2 of the paper):

* parMap: T(n) = n T(1), so W = (n/p) T(1) = T(n)/p;
* farm:   W = T(n/p), which is T(n)/p for work linear in the tasks; when the
  number of tasks m is known and p does not divide it, a static (round-robin)
  farm gives some PEs ceil(m/p) tasks, so W = ceil(m/p) T(n)/m (our model of
  the imbalance the paper leaves for future work);
* iteration: k iterations of s(n), T(n) = k s(n), W = (k/p) s(n); with k known,
  p iterations run per round, so W = ceil(k/p) s(n);
* flat divide and conquer, branching r, depth d: r^d tasks of size n/r^d,
  W = (r^d/p) T(n/r^d) + O(n), where O(n) = T(n) - r^d T(n/r^d) is the divide
  and merge work done sequentially at the top of the tree. With only whole-run
  timings the penalty is observed as the sum over levels; ``flat_dc_time`` takes
  per-level penalties when they are known.

``W`` takes the sequential time as a function so that the skeleton can ask for
T at another size (n/r^d) than the one measured.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from autotune.errors import UserError

SeqTime = Callable[[float], float]
SKELETONS = ("parmap", "farm", "dc", "iteration")


@dataclass(frozen=True)
class Skeleton:
    """A skeleton and its parameters; ``work`` is W(n, p) given T(.)."""

    kind: str = "parmap"
    tasks: int | None = None  # farm: number of statically distributed tasks
    iterations: int | None = None  # iteration: k
    branching: int | None = None  # dc: r
    depth: int | None = None  # dc: d

    def __post_init__(self) -> None:
        if self.kind not in SKELETONS:
            raise UserError(f"unknown skeleton {self.kind!r}; choose from {', '.join(SKELETONS)}")
        for name in ("tasks", "iterations", "branching", "depth"):
            v = getattr(self, name)
            if v is not None and v < 1:
                raise UserError(f"{name} must be a positive integer, got {v}")
        if self.kind == "dc" and (self.branching is None) != (self.depth is None):
            raise UserError("divide and conquer needs both --branching and --depth (or neither)")

    def work(self, seq: SeqTime, n: float, p: int) -> float:
        """W(n, p): the sequential part of T(n, p) under this skeleton."""
        if p < 1:
            raise UserError(f"p must be at least 1, got {p}")
        t = seq(n)
        if self.kind == "farm" and self.tasks:
            return t * math.ceil(self.tasks / p) / self.tasks
        if self.kind == "iteration" and self.iterations:
            return t * math.ceil(self.iterations / p) / self.iterations
        if self.kind == "dc" and self.branching:
            leaves = self.branching**self.depth
            leaf = seq(n / leaves)
            return leaves / p * leaf + (t - leaves * leaf)
        return t / p

    def formula(self) -> str:
        if self.kind == "farm" and self.tasks:
            return f"T(n)*ceil({self.tasks}/p)/{self.tasks} + Abar(n,p)"
        if self.kind == "iteration" and self.iterations:
            return f"ceil({self.iterations}/p)*s(n) + Abar(n,p), s(n) = T(n)/{self.iterations}"
        if self.kind == "dc" and self.branching:
            rd = f"{self.branching}^{self.depth}"
            return f"({rd}/p) T(n/{rd}) + O(n) + Abar(n,p), O(n) = T(n) - {rd} T(n/{rd})"
        return {
            "parmap": "(n/p) T(1) + Abar(n,p) = T(n)/p + Abar(n,p)",
            "farm": "T(n/p) + Abar(n,p) = T(n)/p + Abar(n,p)",
            "iteration": "(k/p) s(n) + Abar(n,p) = T(n)/p + Abar(n,p)",
            "dc": "T(n)/p + Abar(n,p) (give --branching/--depth for the tree form)",
        }[self.kind]

    def to_dict(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if v is not None}


def flat_dc_time(
    seq: SeqTime,
    level_penalty: Callable[[float, int], float],
    n: float,
    p: int,
    branching: int,
    depth: int,
    overhead: float = 0.0,
) -> float:
    """The paper's flat divide and conquer time with per-level penalties.

    T(n, p) = sum_{i<d} r^i Abar(n/r^i, p) + (r^d/p) T(n/r^d) + O(n, n/r^d, p).
    """
    penalty = sum(branching**i * level_penalty(n / branching**i, p) for i in range(depth))
    leaves = branching**depth
    return penalty + leaves / p * seq(n / leaves) + overhead


def imbalance(tasks: int, p: int) -> float:
    """Fraction of PEs that carry one task more than the others, (m mod p)/p.

    This is the "imbalance" column of the paper's RWPT table.
    """
    return (tasks % p) / p


def imbalance_slowdown(tasks: int, p: int) -> float:
    """Time of a static farm over the balanced ideal: ceil(m/p) / (m/p)."""
    return math.ceil(tasks / p) * p / tasks

"""Reference points, the parallel penalty Abar and the Karp-Flatt serial fraction.

Abar(n, p) = T(n, p) - W(n, p) is the paper's measure of scalability: it should
not grow with p. Karp and Flatt's serial fraction
f(n, p) = (T(n,p)/T(n) - 1/p) / (1 - 1/p) is shown beside it; both are tabulated
by p (rows = sizes) and by n (rows = PE counts) as in the paper's Figure 7.

The reference T(n) is, in order of preference (``reference="auto"``):
absolute - a measured sequential time; relative - T(n, 1); scaled - p0 T(n, p0)
for the smallest measured p0 (the paper's LBM convention, 32768 T(n, 32768),
when neither exists).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from autotune.errors import UserError
from autotune.skeletons.skeleton import Skeleton, imbalance, imbalance_slowdown
from autotune.skeletons.tables import SEQ, TimeTable

REFERENCES = ("auto", "absolute", "relative", "scaled")


@dataclass
class Reference:
    kind: str  # absolute | relative | scaled
    p0: int  # PE count whose runs define T(n) (0 = sequential runs)
    times: dict[float, float]  # n -> T(n)
    note: str


def reference_times(table: TimeTable, reference: str = "auto") -> Reference:
    """T(n) for every size that has the run defining it."""
    if reference not in REFERENCES:
        raise UserError(f"unknown reference {reference!r}; choose from {', '.join(REFERENCES)}")
    has_seq = any(r.p == SEQ for r in table.rows)
    has_one = any(r.p == 1 for r in table.rows)
    kind = reference
    if kind == "auto":
        kind = "absolute" if has_seq else "relative" if has_one else "scaled"
    if kind == "absolute":
        if not has_seq:
            raise UserError(
                "absolute reference needs sequential runs (p = seq)", location=table.source
            )
        times = {r.n: r.time for r in table.rows if r.p == SEQ}
        return Reference(kind, SEQ, times, "absolute reference point: T(n) = sequential time")
    if kind == "relative":
        if not has_one:
            raise UserError(
                "relative reference needs runs on one PE (p = 1)", location=table.source
            )
        times = {r.n: r.time for r in table.rows if r.p == 1}
        return Reference(kind, 1, times, "relative reference point: T(n) := T(n,1)")
    pes = table.pes()
    if not pes:
        raise UserError("the table has no parallel runs", location=table.source)
    p0 = pes[0]
    times = {r.n: p0 * r.time for r in table.rows if r.p == p0}
    return Reference(
        "scaled",
        p0,
        times,
        f"scaled reference point: T(n) := {p0} * T(n,{p0}) (perfect speedup "
        f"up to {p0} PEs assumed)",
    )


def karp_flatt(t_np: float, t_n: float, p: int) -> float | None:
    """Serial fraction f(n, p); undefined for p = 1."""
    if p <= 1 or t_n == 0:
        return None
    return (t_np / t_n - 1.0 / p) / (1.0 - 1.0 / p)


@dataclass
class PenaltyTable:
    reference: Reference
    sizes: list[float]
    pes: list[int]
    abar: dict[tuple[float, int], float] = field(default_factory=dict)
    serial: dict[tuple[float, int], float | None] = field(default_factory=dict)

    def by_p(self) -> tuple[list[str], list[list[object]]]:
        """Rows per size: Abar and f for every p."""
        headers = ["n"] + [f"Abar p={p}" for p in self.pes] + [f"f p={p}" for p in self.pes]
        rows = [
            [f"{n:g}"]
            + [self.abar.get((n, p)) for p in self.pes]
            + [self.serial.get((n, p)) for p in self.pes]
            for n in self.sizes
        ]
        return headers, rows

    def by_n(self) -> tuple[list[str], list[list[object]]]:
        """Rows per PE count: Abar and f for every size."""
        headers = ["p"] + [f"Abar n={n:g}" for n in self.sizes] + [f"f n={n:g}" for n in self.sizes]
        rows = [
            [p]
            + [self.abar.get((n, p)) for n in self.sizes]
            + [self.serial.get((n, p)) for n in self.sizes]
            for p in self.pes
        ]
        return headers, rows

    def to_dict(self) -> dict:
        return {
            "reference": self.reference.note,
            "points": [
                {"n": n, "p": p, "abar": a, "serial_fraction": self.serial.get((n, p))}
                for (n, p), a in sorted(self.abar.items())
            ],
        }


def penalty_table(
    table: TimeTable,
    skeleton: Skeleton | None = None,
    reference: str = "auto",
    seq_method: str = "spline",
) -> PenaltyTable:
    """Abar(n, p) = T(n, p) - W(n, p) and f(n, p) at every measured point.

    A skeleton that needs T at unmeasured sizes (dc: T(n/r^d)) gets it from
    ``seq_method`` fitted on the reference times (fmm spline: it interpolates).
    """
    from autotune.skeletons.estimators import column, make_estimator

    skeleton = skeleton or Skeleton()
    ref = reference_times(table, reference)
    fitted = []

    def seq(n: float) -> float:
        if n in ref.times:
            return ref.times[n]
        if not fitted:
            xs = sorted(ref.times)
            fitted.append(make_estimator(seq_method).fit(column(xs), [ref.times[x] for x in xs]))
        return float(fitted[0].predict(column([n]))[0])

    out = PenaltyTable(ref, [n for n in table.sizes() if n in ref.times], table.pes())
    for r in table.rows:
        if r.p == SEQ or r.n not in ref.times:
            continue
        out.abar[(r.n, r.p)] = r.time - skeleton.work(seq, r.n, r.p)
        out.serial[(r.n, r.p)] = karp_flatt(r.time, ref.times[r.n], r.p)
    return out


@dataclass
class ImbalanceRow:
    p: int
    measured: float
    imbalance: float  # (m mod p)/p
    balanced: float  # T(n)/p
    static: float  # ceil(m/p) T(n)/m
    abar_balanced: float  # measured - balanced
    abar_static: float  # measured - static


def farm_imbalance(table: TimeTable, tasks: int, reference: str = "auto") -> list[ImbalanceRow]:
    """A static farm of ``tasks`` tasks: how much of Abar is load imbalance.

    The paper could not predict RWPT (n = 294912 tasks dealt round robin) because
    p does not divide n; modelling the busiest PE's ceil(n/p) tasks removes the
    imbalance from the penalty.
    """
    if len(table.sizes()) != 1:
        raise UserError("the imbalance table needs one problem size (a by-p table)")
    ref = reference_times(table, reference)
    t_n = next(iter(ref.times.values()))
    farm = Skeleton("farm", tasks=tasks)
    rows = []
    for r in sorted(table.rows, key=lambda r: r.p):
        if r.p == SEQ:
            continue
        balanced = t_n / r.p
        static = farm.work(lambda _n: t_n, r.n, r.p)
        # round away float noise so that a balanced reference shows a clean zero
        rows.append(
            ImbalanceRow(
                r.p,
                r.time,
                imbalance(tasks, r.p),
                balanced,
                static,
                round(r.time - balanced, 12),
                round(r.time - static, 12),
            )
        )
    return rows


__all__ = [
    "PenaltyTable",
    "Reference",
    "farm_imbalance",
    "imbalance_slowdown",
    "karp_flatt",
    "penalty_table",
    "reference_times",
]

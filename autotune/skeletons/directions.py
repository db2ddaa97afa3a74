"""The series a skeleton prediction extrapolates, and in which direction.

T(n) over n, and Abar(n, p) over p at the target size, over n at the target p,
or over n for every measured p and then over p (``predictor.predict_point``
documents the directions). Each series goes to the automatic method choice with
its measured noise.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from autotune.errors import UserError
from autotune.skeletons.scalability import Reference
from autotune.skeletons.selection import Choice, choose, measured_choice
from autotune.skeletons.skeleton import Skeleton
from autotune.skeletons.tables import SEQ, Measurement, TimeTable


@dataclass
class SeriesContext:
    """What one prediction works from: the table, the rows it may use, T(n) so far."""

    table: TimeTable
    sk: Skeleton
    n: float
    p: int
    method: str
    m_abar: str
    common: dict
    full_ref: Reference
    keep: Callable[[Measurement], bool] | None
    t_choice: Choice | None = None
    curve: list[Choice] = field(default_factory=list)  # T(.) off the grid (dc: T(n/r^d))

    def __post_init__(self) -> None:
        n, p, keep = self.n, self.p, self.keep
        self.train = self.table.filtered(
            lambda r: not (r.n == n and r.p == p) and (keep is None or keep(r))
        )
        p0 = self.full_ref.p0
        self.ref = Reference(
            self.full_ref.kind,
            p0,
            {r.n: (p0 or 1) * r.time for r in self.train.rows if r.p == p0},
            self.full_ref.note,
        )
        self.measured = self.table.time(n, p)
        self.n_text = "n" if self.table.fixed_n else f"n={n:g}"
        self.notes = list(self.table.notes)

    # -- noise of the series --------------------------------------------------------
    def ref_noise(self, x: float) -> float:
        return (self.full_ref.p0 or 1) * self.table.noise(x, self.full_ref.p0)

    def abar_noise(self, x: float, q: int) -> float:
        """Noise of T(x,q) - W(x,q): both terms' noises (W ~ T(x)/q), in quadrature."""
        return (self.table.noise(x, q) ** 2 + (self.ref_noise(x) / max(q, 1)) ** 2) ** 0.5

    # -- T(n) ---------------------------------------------------------------------------
    def choose_t(self) -> Choice:
        ref, n = self.ref.times, self.n
        if n in ref:
            self.t_choice = measured_choice(f"T({self.n_text})", "n", n, ref[n])
        else:
            xs = sorted(ref)
            self.t_choice = choose(
                xs,
                [ref[x] for x in xs],
                n,
                series="T(n)",
                axis="n",
                method=self.method,
                actual=self.full_ref.times.get(n),
                noise=[self.ref_noise(x) for x in xs],
                **self.common,
            )
        return self.t_choice

    def seq(self, x: float) -> float:
        """T(x): measured, the target's estimate, or the fitted curve elsewhere."""
        ref, t_choice = self.ref.times, self.t_choice
        if x in ref:
            return ref[x]
        if x == self.n and t_choice.has_value:
            return float(t_choice.value)
        if not self.curve:
            if t_choice.measured:
                xs = sorted(ref)
                self.curve.append(
                    choose(
                        xs,
                        [ref[v] for v in xs],
                        x,
                        series="T(n)",
                        axis="n",
                        method=self.method,
                        **{**self.common, "mode": "real-life"},
                    )
                )
            else:
                self.curve.append(t_choice)
        if not self.curve[0].has_value:
            raise UserError(
                f"T({x:g}) is needed by the {self.sk.kind} skeleton but cannot be "
                f"estimated: {self.curve[0].reason}"
            )
        return float(self.curve[0].evaluate([x])[0])

    def true_seq(self, x: float) -> float:
        return self.full_ref.times[x] if x in self.full_ref.times else self.seq(x)

    # -- Abar ---------------------------------------------------------------------------
    def actual_abar(self) -> float | None:
        if self.measured is None:
            return None
        try:
            return self.measured - self.sk.work(self.true_seq, self.n, self.p)
        except UserError:
            return None

    def choose_abar(self) -> tuple[str, Choice, list[Choice]]:
        """(direction, Abar at the target, the inner choices of the n,p direction)."""
        n, p, ref = self.n, self.p, self.ref.times
        at_n = sorted((r.p, r.time) for r in self.train.rows if r.n == n and r.p != SEQ)
        size_p = sorted(r.n for r in self.train.rows if r.p == p and r.n in ref)
        if p == self.full_ref.p0 and self.full_ref.kind != "absolute":
            return (
                "none",
                measured_choice(
                    f"Abar({self.n_text},p)",
                    "p",
                    p,
                    0.0,
                    f"zero by definition at the reference PE count p={p}",
                ),
                [],
            )
        if n in ref and len(at_n) >= 2:
            xs = [float(q) for q, _ in at_n]
            ys = [t - self.sk.work(self.seq, n, q) for q, t in at_n]
            return "p", self._over_p(xs, ys, [self.abar_noise(n, int(q)) for q in xs]), []
        if len(size_p) >= 2:
            ys = [self.table.time(x, p) - self.sk.work(self.seq, x, p) for x in size_p]
            return (
                "n",
                choose(
                    size_p,
                    ys,
                    n,
                    series=f"Abar(n,p={p})",
                    axis="n",
                    method=self.m_abar,
                    actual=self.actual_abar(),
                    nonsense=_abar_nonsense(self.sk, self.seq, None, p),
                    noise=[self.abar_noise(x, p) for x in size_p],
                    **self.common,
                ),
                [],
            )
        return self._over_n_then_p()

    def _over_p(self, xs: list[float], ys: list[float], noise: list[float] | None) -> Choice:
        return choose(
            xs,
            ys,
            self.p,
            series=f"Abar({self.n_text},p)",
            axis="p",
            method=self.m_abar,
            actual=self.actual_abar(),
            nonsense=_abar_nonsense(self.sk, self.seq, self.n, None),
            noise=noise,
            **self.common,
        )

    def _over_n_then_p(self) -> tuple[str, Choice, list[Choice]]:
        """Abar over n to the target size for every measured p, then over p."""
        n, ref = self.n, self.ref.times
        xs, ys, inner = [], [], []
        for q in self.train.pes():
            if q == self.full_ref.p0 and self.full_ref.kind != "absolute":
                xs.append(float(q))
                ys.append(0.0)  # Abar vanishes at the reference PE count by definition
                continue
            sizes = sorted(r.n for r in self.train.rows if r.p == q and r.n in ref)
            if len(sizes) < 2:
                continue
            c = choose(
                sizes,
                [self.table.time(x, q) - self.sk.work(self.seq, x, q) for x in sizes],
                n,
                series=f"Abar(n,p={q})",
                axis="n",
                method=self.m_abar,
                nonsense=_abar_nonsense(self.sk, self.seq, None, q),
                noise=[self.abar_noise(x, q) for x in sizes],
                **{**self.common, "mode": "real-life"},
            )
            inner.append(c)
            if c.has_value:
                xs.append(float(q))
                ys.append(float(c.value))
            else:
                self.notes.append(f"Abar(n={n:g},p={q}) not estimated: {c.reason}")
        if len(xs) < 2:
            raise UserError(
                f"cannot estimate Abar({n:g},{self.p}): need the target p measured at two "
                "or more sizes, or the target size measured at two or more p"
            )
        return "n,p", self._over_p(xs, ys, None), inner


def _abar_nonsense(
    sk: Skeleton, seq: Callable[[float], float], n: float | None, p: int | None
) -> Callable[[float, float], str | None]:
    """Abar itself may be negative; the nonsense is a negative T(n, p) = W + Abar."""

    def check(x: float, value: float) -> str | None:
        try:
            w = sk.work(seq, n, int(x)) if n is not None else sk.work(seq, x, p)
        except UserError:
            return None  # W unknown (T(n) failed): nothing to compare with
        return "negative time T(n,p) (nonsense)" if w + value < 0 else None

    return check

"""Predict T(n, p) at an unmeasured point from a table of (n, p, time).

T(n) and Abar(n, p) are extrapolated separately, each with its own method
(they have a different nature, section 3 of the paper), then recombined with
the skeleton's formula T(n, p) = W(n, p) + Abar(n, p). The direction follows
from what is measured:

* ``p``   - T(n) is measured at the target size: extrapolate Abar(n, .) over p
  (the paper's T(100, 7) from p <= 6; LBM);
* ``n``   - the target p is measured at other sizes: extrapolate T(.) and
  Abar(., p) over n (Gauss T(120, 7), Rabin-Miller T(11213, 8));
* ``n,p`` - neither: Abar(n*, p_j) over n for every measured p_j, then over p.

``predict_point`` is the single entry point for the CLI and for ``autotune
scale``, which only has to hand over its (n, p, time) rows.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from autotune.errors import UserError
from autotune.skeletons.directions import SeriesContext
from autotune.skeletons.estimators import METHOD_NAMES
from autotune.skeletons.scalability import karp_flatt, reference_times
from autotune.skeletons.selection import (
    DEFAULT_EPSILON,
    Choice,
    negative_time,
)
from autotune.skeletons.skeleton import Skeleton
from autotune.skeletons.tables import Measurement, TimeTable, from_rows

_COND = re.compile(r"^\s*([np])\s*(<=|>=|==|!=|<|>|=)\s*([-+0-9.eE]+)\s*$")


@dataclass
class Prediction:
    """An estimate of T(n, p) with its two components and the evidence for each."""

    skeleton: Skeleton
    n: float
    p: int
    reference: str
    direction: str
    t_seq: Choice  # T(n) at the target size
    abar: Choice  # Abar(n, p) at the target
    work: float | None  # W(n, p), e.g. T(n)/p
    time: float | None  # W + Abar
    serial_fraction: float | None
    measured: float | None = None  # T(n, p) if the full table has it
    error: float | None = None  # (time - measured) / measured
    inner: list[Choice] = field(default_factory=list)  # n,p direction: Abar(n*, p_j)
    notes: list[str] = field(default_factory=list)
    failure: str | None = None
    fixed_n: bool = False  # the table had one unnamed size
    uncertainty: float | None = None  # relative, from the chosen methods' check errors
    suggestions: list[str] = field(default_factory=list)  # measurements that would help

    @property
    def unchecked(self) -> bool:
        """The estimate rests on a method no check accepted (given, clearly marked)."""
        return any(c.unchecked for c in (self.t_seq, self.abar, *self.inner))

    @property
    def n_text(self) -> str:
        return "n" if self.fixed_n else f"{self.n:g}"

    @property
    def ok(self) -> bool:
        return self.failure is None

    def require(self) -> Prediction:
        """Raise the failure as a one-line UserError (for callers that need a number)."""
        if self.failure:
            raise UserError(self.failure)
        return self

    def to_dict(self) -> dict:
        return {
            "skeleton": self.skeleton.to_dict(),
            "formula": self.skeleton.formula(),
            "n": None if self.fixed_n else self.n,
            "p": self.p,
            "reference": self.reference,
            "direction": self.direction,
            "T_n": self.t_seq.to_dict(),
            "Abar": self.abar.to_dict(),
            "work": self.work,
            "T_n_p": self.time,
            "serial_fraction": self.serial_fraction,
            "measured": self.measured,
            "relative_error": self.error,
            "inner": [c.to_dict() for c in self.inner],
            "notes": self.notes,
            "ok": self.ok,
            "failure": self.failure,
            "unchecked": self.unchecked,
            "uncertainty": self.uncertainty,
            "suggestions": self.suggestions,
        }


def parse_known(expr: str | None) -> Callable[[Measurement], bool] | None:
    """``"n<=100,p!=8"`` -> a row filter (all conditions must hold)."""
    if not expr:
        return None
    tests = []
    for part in expr.split(","):
        m = _COND.match(part)
        if not m:
            raise UserError(f"cannot read condition {part!r}; write e.g. n<=100 or p<=6")
        var, op, num = m.group(1), m.group(2), float(m.group(3))
        tests.append((var, op, num))
    ops = {
        "<=": float.__le__,
        ">=": float.__ge__,
        "<": float.__lt__,
        ">": float.__gt__,
        "==": float.__eq__,
        "=": float.__eq__,
        "!=": float.__ne__,
    }

    def keep(r: Measurement) -> bool:
        return all(ops[op](float(r.n if var == "n" else r.p), num) for var, op, num in tests)

    return keep


# Over 60 lines: the paper's prediction steps in order, each a call.
def predict_point(
    rows: TimeTable | Iterable[object],
    skeleton: Skeleton | str = "parmap",
    n: float | None = None,
    p: int | None = None,
    method: str = "auto",
    *,
    method_abar: str | None = None,
    mode: str = "real-life",
    epsilon: float = DEFAULT_EPSILON,
    holdout: int = 1,
    mean_strategy: str = "two-best",
    reference: str = "auto",
    known: str | Callable[[Measurement], bool] | None = None,
    degree: int = 3,
    best_effort: bool = False,
    methods: Sequence[str] = METHOD_NAMES,
) -> Prediction:
    """Estimate T(n, p); the (n, p) row itself, if present, is only used to report the error.

    ``known`` restricts the rows the estimate may use (``"n<=100"``), the way the
    paper hides the values it predicts; ``mode="known"`` chooses the methods by
    their error on the hidden true values (the paper's "predict a known value").
    ``best_effort`` gives the best estimate, marked unchecked, where the paper's
    protocol fails, and says which measurements would help; measured noise
    (``Measurement.noise``) raises each choice's epsilon to what the data allow.
    """
    table = rows if isinstance(rows, TimeTable) else from_rows(rows)
    sk = skeleton if isinstance(skeleton, Skeleton) else Skeleton(skeleton)
    if p is None or int(p) < 1:
        raise UserError("give the target PE count p (at least 1)")
    p = int(p)
    if n is not None and table.fixed_n:
        raise UserError("this table has one unnamed problem size: give only p (e.g. p=7)")
    if n is None:
        if not table.fixed_n and len(table.sizes()) != 1:
            raise UserError("give the target size n (the table has several sizes)")
        n = table.sizes()[0]
    n = float(n)
    keep = parse_known(known) if isinstance(known, str) or known is None else known
    common = dict(
        mode=mode,
        epsilon=epsilon,
        holdout=holdout,
        mean_strategy=mean_strategy,
        degree=degree,
        best_effort=best_effort,
        methods=methods,
    )
    ctx = SeriesContext(
        table,
        sk,
        n,
        p,
        method,
        method_abar or method,
        common,
        reference_times(table, reference),
        keep,
    )
    if mode == "known" and ctx.measured is None:
        raise UserError(f"choosing on the known value needs T({n:g},{p}) in the table")
    t_choice = ctx.choose_t()
    work = sk.work(ctx.seq, n, p) if t_choice.has_value else None
    direction, abar, inner = ctx.choose_abar()
    return _assemble(ctx, direction, t_choice, abar, work, inner)


def _assemble(
    ctx: SeriesContext,
    direction: str,
    t_choice: Choice,
    abar: Choice,
    work: float | None,
    inner: list[Choice],
) -> Prediction:
    n, p, measured = ctx.n, ctx.p, ctx.measured
    time = work + abar.value if (work is not None and abar.has_value) else None
    failure = None
    if not t_choice.has_value:
        failure = f"T(n) at n={n:g}: {t_choice.reason}"
    elif not abar.has_value:
        failure = f"{abar.series} at {abar.axis}={abar.at:g}: {abar.reason}"
    t_n = float(t_choice.value) if t_choice.has_value else None
    result = Prediction(
        ctx.sk,
        n,
        p,
        ctx.ref.note,
        direction,
        t_choice,
        abar,
        work,
        time,
        karp_flatt(time, t_n, p) if (time is not None and t_n) else None,
        measured,
        (time - measured) / measured if (time is not None and measured) else None,
        inner,
        ctx.notes,
        failure,
        fixed_n=ctx.table.fixed_n,
    )
    result.uncertainty = _uncertainty(result)
    result.suggestions = _suggestions(result, ctx.table, ctx.ref.times, ctx.full_ref.p0)
    return result


def _uncertainty(pred: Prediction) -> float | None:
    """Relative uncertainty of T(n,p): each component's check error, in quadrature.

    A measured component adds nothing; one that could not be checked makes the
    uncertainty unknown (None).
    """
    if pred.time is None or not pred.time:
        return None
    parts = []
    for choice, size in ((pred.t_seq, pred.work), (pred.abar, pred.abar.value)):
        if choice.measured:
            continue
        err = choice.check_error
        if err is None or size is None:
            return None
        parts.append(err * abs(size))
    return float(sum(v * v for v in parts) ** 0.5 / abs(pred.time))


def _suggestions(
    pred: Prediction, table: TimeTable, ref_times: dict[float, float], p0: int
) -> list[str]:
    """Which measurement would most help a choice that failed or went unchecked."""
    out = []
    sizes = sorted(ref_times)
    if not (pred.t_seq.ok or pred.t_seq.measured) and sizes and not pred.fixed_n:
        nxt = round(_between(sizes[-1], pred.n))
        out.append(
            f"T(n): measure p={p0} at a size nearer the target, e.g. n={nxt:g} "
            f"(largest measured: {sizes[-1]:g})"
        )
    weak = [c for c in (pred.abar, *pred.inner) if not (c.ok or c.measured)]
    if weak:
        pes = table.pes()
        if pred.direction in ("n", "n,p") and pes:
            out.append(
                f"Abar: measure the thread counts {', '.join(map(str, pes))} at "
                f"one more size, nearer n={pred.n:g}"
            )
        if pred.direction in ("p", "n,p") and pes and pred.p > pes[-1]:
            out.append(
                f"Abar: measure more thread counts between {pes[-1]} and {pred.p}, e.g. "
                f"p={int(round(_between(pes[-1], pred.p)))}"
            )
    return out


def _between(lo: float, hi: float) -> float:
    """The geometric midpoint of two positive values (a step towards the target)."""
    return float((lo * hi) ** 0.5) if lo > 0 and hi > 0 else hi


__all__ = ["Prediction", "negative_time", "parse_known", "predict_point"]

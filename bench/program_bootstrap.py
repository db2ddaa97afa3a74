"""How far the ranking figures would move on other programs: a bootstrap over programs.

The ranking tables aggregate 14-20 loops of 11-14 programs; one loop's first pick can
move regret@1 by a point, so "4.5% against a goal of 4%" says nothing until it is
known how far the figure moves when the programs change. Programs, not loops, are
resampled (with replacement): the loops of one program share its code and data, and
the claim is about programs the model has not seen. A goal is *met* when the whole 95%
interval is on its side, *not met* when the whole interval is on the other side, and
*not resolved by these programs* otherwise.

The same resampling, paired, compares two runs of the bench on the same loops (a model
change against the one before it): the interval of the difference says whether the
change moved a figure beyond what the choice of programs does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from autotune.models.quality import geomean_regret

RESAMPLES = 2000
LEVEL = 0.95

# name -> (per-loop attribute, aggregation over loops, goal, True when lower is better)
METRICS: dict[str, tuple[str, str, float, bool]] = {
    "regret@1": ("regret1", "geomean_regret", 0.04, True),
    "regret@5": ("regret5", "geomean_regret", 0.01, True),
    "best found": ("best_found", "mean", 0.80, False),
    "tau": ("tau", "mean", 0.75, False),
    "MARE anchored": ("mare_anchored", "median", 0.15, True),
}
_AGGREGATE: dict[str, Callable[[Sequence[float]], float | None]] = {
    "geomean_regret": geomean_regret,
    "mean": lambda v: float(np.mean(v)) if len(v) else None,
    "median": lambda v: float(np.median(v)) if len(v) else None,
}


def program_of(loop_name: str) -> str:
    """The program a loop belongs to: its name up to the line number."""
    return loop_name.rsplit(":", 1)[0]


def _value(score, attr: str) -> float | None:
    v = score[attr] if isinstance(score, dict) else getattr(score, attr)
    if isinstance(v, str):  # a numpy bool written by json's default=str
        return {"True": 1.0, "False": 0.0}.get(v)
    return None if v is None else float(v)


def _loop_name(score) -> str:
    return score["loop"] if isinstance(score, dict) else score.loop


def _method(score) -> str:
    return score["method"] if isinstance(score, dict) else score.method


def _by_program(scores: Sequence, method: str) -> dict[str, list]:
    out: dict[str, list] = {}
    for s in scores:
        if _method(s) == method:
            out.setdefault(program_of(_loop_name(s)), []).append(s)
    return out


def aggregate(scores: Sequence, name: str) -> float | None:
    """One figure over loops, aggregated as the ranking table aggregates it."""
    attr, how, _, _ = METRICS[name]
    vals = [v for v in (_value(s, attr) for s in scores) if v is not None]
    return _AGGREGATE[how](vals) if vals else None


def _resamples(programs: list[str], resamples: int, seed: int) -> list[list[str]]:
    rng = np.random.default_rng(seed)
    return [list(rng.choice(programs, size=len(programs))) for _ in range(resamples)]


def interval(
    scores: Sequence, method: str, name: str, resamples: int = RESAMPLES, seed: int = 0
) -> tuple[float | None, float | None, float | None]:
    """(figure, low, high): the figure over every loop and its 95% program-bootstrap
    interval."""
    groups = _by_program(scores, method)
    every = [s for g in groups.values() for s in g]
    value = aggregate(every, name)
    if value is None or len(groups) < 2:
        return value, None, None
    draws = [
        aggregate([s for p in draw for s in groups[p]], name)
        for draw in _resamples(sorted(groups), resamples, seed)
    ]
    got = [d for d in draws if d is not None]
    lo, hi = np.quantile(got, [(1 - LEVEL) / 2, (1 + LEVEL) / 2])
    return value, float(lo), float(hi)


def verdict(name: str, low: float | None, high: float | None) -> str:
    """met / not met / not resolved, for the goal of ``name`` and an interval."""
    if low is None or high is None:
        return "no interval"
    _, _, goal, lower_better = METRICS[name]
    good_side = high <= goal if lower_better else low >= goal
    bad_side = low > goal if lower_better else high < goal
    return "met" if good_side else "not met" if bad_side else "not resolved by these programs"


def paired_difference(
    new: Sequence, old: Sequence, method: str, name: str, resamples: int = RESAMPLES, seed: int = 0
) -> tuple[float | None, float | None, float | None, int]:
    """(new - old, low, high, loops) on the loops both runs scored, programs resampled
    together so each draw compares the two runs on the same loops."""
    old_by = {(program_of(_loop_name(s)), _loop_name(s)): s for s in old if _method(s) == method}
    pairs: dict[str, list[tuple]] = {}
    for s in new:
        key = (program_of(_loop_name(s)), _loop_name(s))
        if _method(s) == method and key in old_by:
            pairs.setdefault(key[0], []).append((s, old_by[key]))
    loops = sum(len(p) for p in pairs.values())

    def diff(chosen: list[str]) -> float | None:
        a = aggregate([n for p in chosen for n, _ in pairs[p]], name)
        b = aggregate([o for p in chosen for _, o in pairs[p]], name)
        return None if a is None or b is None else a - b

    value = diff(list(pairs))
    if value is None or len(pairs) < 2:
        return value, None, None, loops
    draws = [d for d in map(diff, _resamples(sorted(pairs), resamples, seed)) if d is not None]
    lo, hi = np.quantile(draws, [(1 - LEVEL) / 2, (1 + LEVEL) / 2])
    return value, float(lo), float(hi), loops


def _fmt(name: str, v: float | None) -> str:
    if v is None:
        return "-"
    return f"{v:.2f}" if name == "tau" else f"{v:.1%}"


def _signed(name: str, v: float) -> str:
    return f"{v:+.2f}" if name == "tau" else f"{v:+.1%}"


def print_goals(scores: Sequence, methods: Sequence[str]) -> list[dict]:
    """Each goal of the model issue for ``methods``, with its interval and verdict."""
    rows = []
    print(f"\ngoals, with {LEVEL:.0%} intervals from resampling the programs ({RESAMPLES} draws)")
    for method in methods:
        for name in METRICS:
            value, lo, hi = interval(scores, method, name)
            if value is None:
                continue
            said = verdict(name, lo, hi)
            rows.append({"method": method, "figure": name, "value": value})
            rows[-1].update({"low": lo, "high": hi, "verdict": said})
            span = f"[{_fmt(name, lo)}, {_fmt(name, hi)}]"
            goal = METRICS[name][2]
            print(
                f"  {method:>22s}  {name:<14s} {_fmt(name, value):>7s} {span:<17s} "
                f"goal {_fmt(name, goal):>5s}: {said}"
            )
    return rows


def print_comparison(new: Sequence, old: Sequence, methods: Sequence[str], label: str) -> list:
    """This run against ``label`` (an earlier run's per-loop scores), paired by loop."""
    rows = []
    print(f"\nagainst {label}: difference (this run - that one), {LEVEL:.0%} interval, paired")
    for method in methods:
        for name in METRICS:
            d, lo, hi, loops = paired_difference(new, old, method, name)
            if d is None:
                continue
            moved = lo is not None and (lo > 0 or hi < 0)
            rows.append({"method": method, "figure": name, "difference": d, "low": lo})
            rows[-1].update({"high": hi, "loops": loops, "beyond_programs": moved})
            span = "-" if lo is None else f"[{_signed(name, lo)}, {_signed(name, hi)}]"
            said = "moved beyond the choice of programs" if moved else "within it"
            print(
                f"  {method:>22s}  {name:<14s} {_signed(name, d):>7s} {span:<19s} "
                f"{loops} loops: {said}"
            )
    return rows

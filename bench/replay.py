"""Replay tuning strategies on exhaustively measured loops, offline.

Every strategy starts from the measured original and may measure variants:
what it ends with is the fastest of the original and what it measured, so
regret = (that time) / (fastest of the original and every variant) - 1.

- ``topk`` (per model): the model's first k variants (k = 1 and K);
- ``sequential``: ``autotune.tuning.search.SequentialSearch`` with budget K,
  its prior the model's predictions;
- ``random``: k variants drawn at random (expected value over many draws).

Also per loop, for each model: Kendall tau and mean absolute relative error
(MARE) of its predictions over every variant, raw and after anchoring on the
measured original (every prediction times measured/predicted original).
"""

from __future__ import annotations

import random
import statistics
import zlib
from dataclasses import dataclass, field

import numpy as np

from autotune.frontend.records import LoopRecord
from autotune.measure.machine import Machine
from autotune.measure.microbench import RuntimeProfile
from autotune.models.features import feature_matrix, resolve_variant
from autotune.models.quality import geomean_regret, kendall_tau, mean_abs_rel_error
from autotune.tuning.search import Candidate, SequentialSearch, variant_coords
from autotune.tuning.search_prior import SearchPrior
from autotune.tuning.ship_rule import ShipRule, first_pick
from autotune.variants.equivalence import canonical, collapse
from autotune.variants.space import BASELINE, Variant

K = 5


@dataclass
class ReplayLoop:
    name: str
    record: LoopRecord
    baseline_s: float
    times: dict[Variant, float]  # every variant but the original


@dataclass
class LoopScore:
    loop: str
    method: str
    regret1: float | None = None
    regret5: float | None = None
    best_found: bool | None = None  # the fastest (original included) was measured
    tau: float | None = None
    mare: float | None = None
    mare_anchored: float | None = None
    used: float = 0.0  # programs measured, the original included
    notes: dict = field(default_factory=dict)


def _regret(got: float, best: float) -> float:
    return got / best - 1.0


def model_scores(
    loop: ReplayLoop,
    model,
    name: str,
    machine: Machine,
    k: int = K,
    profile: RuntimeProfile | None = None,
) -> tuple[LoopScore, np.ndarray, float]:
    """Top-k scores of one model; also its predictions (variants) and the original's."""
    variants = list(loop.times)
    y = np.array([loop.times[v] for v in variants])
    X, _ = feature_matrix(
        [(loop.record, v) for v in [BASELINE, *variants]],
        machine,
        list(model.feature_names_),
        profile,
    )
    pred = np.asarray(model.predict(X), dtype=float)
    base_pred, pred = float(pred[0]), pred[1:]
    best = min(loop.baseline_s, float(y.min()))
    order = np.argsort(pred, kind="stable")
    true_best = int(np.argmin(y))
    score = LoopScore(loop.name, name)
    score.regret1 = _regret(min(loop.baseline_s, float(y[order[0]])), best)
    score.regret5 = _regret(min(loop.baseline_s, float(y[order[:k]].min())), best)
    score.best_found = loop.baseline_s <= y.min() or true_best in set(order[:k].tolist())
    score.tau = kendall_tau(pred, list(y))
    score.mare = mean_abs_rel_error(pred, list(y))
    score.mare_anchored = mean_abs_rel_error(pred * loop.baseline_s / base_pred, list(y))
    score.used = 1 + min(k, len(variants))
    top, gain = first_pick(base_pred, list(pred), [v.threads for v in variants], machine.cores)
    score.notes["first_pick"] = [gain, loop.baseline_s / float(y[top])]  # predicted, measured
    return score, pred, base_pred


def log_pairs(
    loop, model, machine: Machine, profile: RuntimeProfile | None = None, runtime: str = "libgomp"
):
    """(log predicted, log measured) over a recorded loop's variants the runtime runs
    differently: what a search prior is fitted on."""
    keep, _ = collapse(loop.record, list(loop.times), runtime)
    names = list(model.feature_names_)
    X, _ = feature_matrix([(loop.record, v) for v in keep], machine, names, profile)
    pred = np.asarray(model.predict(X), dtype=float)
    return np.log(pred), np.log([loop.times[v] for v in keep])


def sequential_score(
    loop: ReplayLoop,
    pred: np.ndarray,
    base_pred: float,
    machine: Machine,
    k: int = K,
    name: str = "sequential",
    prior: SearchPrior | None = None,
) -> LoopScore:
    variants = list(loop.times)
    y = np.array([loop.times[v] for v in variants])
    best = min(loop.baseline_s, float(y.min()))
    cands = [
        Candidate(v, float(p), variant_coords(loop.record, v, machine))
        for v, p in zip(variants, pred, strict=True)
    ]
    base = Candidate(BASELINE, base_pred, variant_coords(loop.record, BASELINE, machine))
    search = SequentialSearch.under(prior or SearchPrior(), k)
    res = search.run(base, loop.baseline_s, cands, loop.times.get)
    got = [s.measured_s for s in res.measured]
    score = LoopScore(loop.name, name)
    score.regret1 = _regret(min([loop.baseline_s, *got[:1]]), best)
    score.regret5 = _regret(min([loop.baseline_s, *got]), best)
    score.best_found = min([loop.baseline_s, *got]) <= best
    post = [res.posterior_s[v] for v in variants]
    score.tau = kendall_tau(post, list(y))
    score.mare = mean_abs_rel_error(post, list(y))
    score.mare_anchored = mean_abs_rel_error([res.anchored_s[v] for v in variants], list(y))
    score.used = 1 + len(res.steps)
    score.notes["stopped"] = res.stopped
    return score


def random_score(loop: ReplayLoop, k: int = K, trials: int = 2000) -> LoopScore:
    y = list(loop.times.values())
    best = min(loop.baseline_s, min(y))
    rng = random.Random(zlib.crc32(loop.name.encode()))
    draws = [min(rng.sample(y, min(k, len(y)))) for _ in range(trials)]
    score = LoopScore(loop.name, "random")
    score.regret1 = statistics.fmean(
        _regret(min(loop.baseline_s, rng.choice(y)), best) for _ in range(trials)
    )
    score.regret5 = statistics.fmean(_regret(min(loop.baseline_s, d), best) for d in draws)
    score.best_found = None
    score.used = 1 + min(k, len(y))
    return score


def replay_loop(
    loop: ReplayLoop,
    models: dict,
    machine: Machine,
    runtime: str = "libgomp",
    k: int = K,
    profile: RuntimeProfile | None = None,
    priors: dict | None = None,
) -> list[LoopScore]:
    """Every method's score on one loop; ``models`` maps a name to a fitted model,
    ``priors`` a name to the search prior fitted with it (default: the shipped one).

    Variants the runtime runs identically to another (or to the original) are
    dropped first, as ``rank`` does. The sequential search is run with each
    model as its prior.
    """
    keep, _ = collapse(loop.record, list(loop.times), runtime)
    loop = ReplayLoop(loop.name, loop.record, loop.baseline_s, {v: loop.times[v] for v in keep})
    if len(loop.times) < 2:
        return []
    scores = []
    for name, model in models.items():
        score, pred, base_pred = model_scores(loop, model, name, machine, k, profile)
        scores.append(score)
        scores.append(
            sequential_score(
                loop,
                pred,
                base_pred,
                machine,
                k,
                name=f"sequential({name})",
                prior=(priors or {}).get(name),
            )
        )
    scores.append(random_score(loop, k))
    return scores


def summarize(scores: list[LoopScore]) -> list[dict]:
    """One row per method: geomean regrets, share of loops where the best was found, means."""
    rows = []
    for method in dict.fromkeys(s.method for s in scores):
        ss = [s for s in scores if s.method == method]

        def mean(attr: str, agg=np.mean, ss=ss) -> float | None:
            vals = [getattr(s, attr) for s in ss if getattr(s, attr) is not None]
            return float(agg(vals)) if vals else None

        rows.append(
            {
                "method": method,
                "loops": len(ss),
                "regret@1": geomean_regret([s.regret1 for s in ss]),
                "regret@5": geomean_regret([s.regret5 for s in ss]),
                "best found": mean("best_found"),
                "tau": mean("tau"),
                "MARE (median loop)": mean("mare", np.median),
                "MARE anchored": mean("mare_anchored", np.median),
                "measured": mean("used"),
            }
        )
    return rows


def print_summary(rows: list[dict], title: str) -> None:
    print(f"\n{title}")
    cols = list(rows[0])
    print("  ".join(f"{c:>20s}" if i == 0 else f"{c:>11s}" for i, c in enumerate(cols)))
    for r in rows:
        cells = []
        for c in cols:
            v = r[c]
            if c in ("method",):
                cells.append(f"{v:>20s}")
            elif v is None:
                cells.append(f"{'-':>11s}")
            elif c in ("tau", "measured", "loops"):
                cells.append(f"{v:>11.2f}" if isinstance(v, float) else f"{v:>11d}")
            else:
                cells.append(f"{v:>11.1%}")
        print("  ".join(cells))


@dataclass
class NoiseFloor:
    """What the sweep's own repeats say about its noise: variants the runtime runs
    identically were each measured, so their difference is measurement noise alone."""

    pairs: int
    median_spread: float | None  # |t(variant) / t(its twin) - 1|
    p90_spread: float | None
    twin_regret: float | None  # geometric mean over loops, see ``noise_floor``
    twin_loops: int
    perfect_tau: float | None = None  # see ``perfect_model_scores``
    perfect_mare_anchored: float | None = None
    # the original against the variants the runtime runs as it (``original_offsets``)
    original_pairs: int = 0
    original_median: float | None = None  # median of t(twin) / t(original) - 1
    original_mean: float | None = None
    original_worst: str = ""
    perfect_mare_offset: float | None = None  # the perfect model, anchored on such an original


def noise_floor(
    loops: list[ReplayLoop], runtime: str = "libgomp", machine: Machine | None = None
) -> NoiseFloor:
    """The spread between identical twins, and the regret of an oracle that knows which
    variant measured fastest but gets its twin's measurement (what re-measuring the
    best gives): no model's first pick can be judged finer than this on the sweep."""
    spreads: list[float] = []
    log_ratios: list[float] = []
    twin_regrets: list[float] = []
    for lp in loops:
        times = {BASELINE: lp.baseline_s, **lp.times}
        _, same = collapse(lp.record, list(lp.times), runtime)
        classes: dict[Variant, list[Variant]] = {}
        for eq in same:
            spreads.append(abs(times[eq.variant] / times[eq.same_as] - 1.0))
            log_ratios.append(float(np.log(times[eq.variant] / times[eq.same_as])))
            classes.setdefault(eq.same_as, [eq.same_as]).append(eq.variant)
        best_v = min(times, key=times.get)
        twins = next((c for c in classes.values() if best_v in c), [])
        others = [times[v] for v in twins if v != best_v]
        if others:
            twin_regrets.append(statistics.mean(others) / times[best_v] - 1.0)
    arr = np.array(spreads)
    tau, mare = perfect_model_scores(loops, log_ratios) if log_ratios else (None, None)
    floor = NoiseFloor(
        len(spreads),
        float(np.median(arr)) if spreads else None,
        float(np.percentile(arr, 90)) if spreads else None,
        geomean_regret(twin_regrets) if twin_regrets else None,
        len(twin_regrets),
        tau,
        mare,
    )
    offsets = original_offsets(loops, machine) if machine is not None else {}
    if offsets:
        logs = np.array([x for xs in offsets.values() for x in xs])
        worst = max(offsets, key=lambda k: max(offsets[k]))
        floor.original_pairs = int(logs.size)
        floor.original_median = float(np.exp(np.median(logs)) - 1.0)
        floor.original_mean = float(np.exp(logs.mean()) - 1.0)
        floor.original_worst = f"{worst} {np.exp(max(offsets[worst])):.2f}x"
        if log_ratios:
            _, floor.perfect_mare_offset = perfect_model_scores(loops, log_ratios, anchor=logs)
    return floor


def original_offsets(loops: list[ReplayLoop], machine: Machine) -> dict[str, list[float]]:
    """Per loop, log(t(twin) / t(original)) for each variant the runtime runs exactly as
    the loop is written (``static`` and ``auto`` at the default team, for a loop without
    a schedule clause): the same code, measured as a variant. Symmetric about 0 when the
    original is measured as its variants are; a one-sided offset is the sweep's."""
    out: dict[str, list[float]] = {}
    for lp in loops:
        trips = lp.record.trip_count
        sched, chunk, threads, _ = resolve_variant(lp.record, BASELINE, machine)
        written, _ = canonical(Variant(sched, chunk, threads), trips)
        for v, t in lp.times.items():
            got, _ = canonical(Variant(*resolve_variant(lp.record, v, machine)[:3]), trips)
            if got == written:
                out.setdefault(lp.name, []).append(float(np.log(t / lp.baseline_s)))
    return out


def perfect_model_scores(
    loops: list[ReplayLoop],
    log_ratios: list[float],
    draws: int = 100,
    seed: int = 0,
    anchor: np.ndarray | None = None,
) -> tuple[float, float]:
    """(tau, anchored MARE), aggregated as the summary does, that a model predicting every
    variant's true time exactly would score against measurements as noisy as the sweep's:
    the recorded times stand for the truth, and each variant (the original, the anchor,
    too) is measured again with a log-error drawn from the twins' log-ratios over sqrt(2)
    (a ratio of two measurements carries two errors), with a random sign. The ceiling a
    model's tau and the floor its anchored MARE can reach on these sweeps. With
    ``anchor`` (log offsets of the original against its twins), the original's
    measurement is off by one of those instead: what anchoring on it costs."""
    rng = np.random.default_rng(seed)
    errors = np.asarray(log_ratios) / np.sqrt(2.0)
    taus, mares = [], []
    for lp in loops:
        truth = np.array([lp.baseline_s, *lp.times.values()])
        t_draws, m_draws = [], []
        for _ in range(draws):
            e = rng.choice(errors, size=truth.size) * rng.choice([-1.0, 1.0], size=truth.size)
            measured = truth * np.exp(e)
            if anchor is not None and anchor.size:
                measured[0] = truth[0] * np.exp(-rng.choice(anchor))
            t_draws.append(kendall_tau(truth[1:], list(measured[1:])))
            anchored = truth[1:] * measured[0] / truth[0]
            m_draws.append(mean_abs_rel_error(anchored, list(measured[1:])))
        taus.append(float(np.mean([t for t in t_draws if t is not None])))
        mares.append(float(np.mean([m for m in m_draws if m is not None])))
    return float(np.mean(taus)), float(np.median(mares))


def print_noise_floor(floor: NoiseFloor) -> None:
    if not floor.pairs:
        print("noise floor: no variant has an identical twin in this sweep")
        return
    print(
        f"noise floor: {floor.pairs} pairs of variants the runtime runs identically differ by "
        f"{floor.median_spread:.1%} (median), {floor.p90_spread:.1%} (90th percentile)"
    )
    if floor.twin_regret is not None:
        print(
            f"  an oracle picking the variant measured fastest, given its twin's time: regret "
            f"{floor.twin_regret:.1%} over the {floor.twin_loops} loops whose best has a twin"
        )
    if floor.perfect_tau is not None:
        print(
            "  a model predicting every true time exactly, scored against measurements this "
            f"noisy: tau {floor.perfect_tau:.2f}, MARE anchored {floor.perfect_mare_anchored:.1%}"
        )
    if floor.original_pairs:
        print(
            f"  the original against the {floor.original_pairs} variants the runtime runs as "
            f"it is written: they measured {floor.original_median:+.1%} (median), "
            f"{floor.original_mean:+.1%} (geometric mean), at most {floor.original_worst}"
        )
        if floor.perfect_mare_offset is not None:
            print(
                "  the perfect model anchored on an original measured that way: MARE "
                f"anchored {floor.perfect_mare_offset:.1%}"
            )


def first_picks(scores: list[LoopScore], method: str = "extended") -> list[tuple[float, float]]:
    """(predicted gain, measured gain) of ``method``'s first pick over the original, per
    loop: what the build hook's rank mode would compile unmeasured."""
    return [tuple(s.notes["first_pick"]) for s in scores if s.method == method]


def rank_mode_row(label: str, picks: list, rules: list[ShipRule | None]) -> dict:
    """What compiling each loop's first pick unmeasured does, under ``rules`` (one per
    loop; None: every predicted gain ships, the rule before the ship rule)."""
    outcome, shipped, slower = [], 0, 0
    for (gain, measured), rule in zip(picks, rules, strict=True):
        ships = gain > 1.0 if rule is None else rule.ships(gain)
        shipped += ships
        slower += ships and measured * 1.03 < 1.0
        outcome.append(measured if ships else 1.0)
    logs = np.log(outcome)
    return {
        "rule": label,
        "loops": len(picks),
        "shipped": shipped,
        "slower by >3%": slower,
        "geomean vs original": float(np.exp(logs.mean())) if len(logs) else None,
        "worst": float(min(outcome)) if outcome else None,
    }


def print_rank_mode(rows: list[dict]) -> None:
    print("\nrank mode: each loop's first pick (extended) compiled unmeasured")
    print(f"{'rule':>44s}  shipped  slower>3%  geomean  worst")
    for r in rows:
        print(
            f"{r['rule']:>44s}  {r['shipped']:>3d}/{r['loops']:<3d}  {r['slower by >3%']:>9d}"
            f"  {r['geomean vs original']:>6.3f}x  {r['worst']:.2f}x"
        )

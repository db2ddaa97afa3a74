"""Calibration: measure a sample of every kernel's variant space, fit the models.

The faithful (seed 004) and extended power-law models are fitted on the same
measurements; leave-one-kernel-out ranking quality decides which one ``rank``
and ``tune`` use by default, so the choice is made on kernels each fit did not
see.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from autotune.frontend.records import LoopRecord
from autotune.measure.machine import Machine
from autotune.measure.microbench import PROFILE_NAME, RuntimeProfile
from autotune.models.features import LOOP_LEVEL_FEATURES, FeatureError, feature_matrix
from autotune.models.fitted import design
from autotune.models.powerlaw import make_model
from autotune.models.quality import evaluate, geomean_regret
from autotune.tuning.modelchoice import PREFERENCE, choose_model
from autotune.tuning.preference import prefer
from autotune.tuning.search_prior import SearchPrior
from autotune.tuning.ship_rule import ShipRule, first_pick
from autotune.variants.space import BASELINE, Variant

MODEL_NAMES = ("faithful", "extended")


@dataclass
class Sample:
    """One measured variant of one loop: the model's training row."""

    kernel: str
    record: LoopRecord
    variant: Variant
    wall_s: float
    cpu_s: float | None


@dataclass
class HeldOut:
    kernel: str
    model: str
    tau: float | None
    mare: float | None
    regret1: float | None
    regret5: float | None
    best_pruned: bool | None


@dataclass
class CalibrationResult:
    samples: list[Sample] = field(default_factory=list)
    models: dict[tuple[str, str], object] = field(default_factory=dict)  # (name, target)
    held_out: list[HeldOut] = field(default_factory=list)
    preferred: str = "extended"
    reason: str = ""
    fit_quality: dict[tuple[str, str], dict] = field(default_factory=dict)
    refused: dict[str, str] = field(default_factory=dict)  # model -> why it was not fitted
    stragglers: int = 0  # runs dropped as stragglers
    noisy: int = 0  # variants not used: their runs spread too much
    current: dict[str, float] = field(default_factory=dict)  # the coefficients in use, scored
    adopted: bool = False
    verdict: str = ""  # why the new coefficients were (not) adopted
    profile: RuntimeProfile | None = None  # this machine's runtime costs, when measured
    # per model: how far it is off on held-out kernels, for the sequential search
    search_priors: dict[str, SearchPrior] = field(default_factory=dict)
    # per model: the predicted gain an unmeasured first pick must exceed (rank mode)
    ship_rules: dict[str, ShipRule] = field(default_factory=dict)


MIN_SAMPLE = 4  # variants per loop: fewer cannot separate threads, chunk and schedule
STRAGGLER_FACTOR = 5.0  # a run this many times the variant's lower median is dropped
NOISY_SPREAD = 0.5  # a variant whose remaining runs spread more is not used
ADOPT_TOLERANCE = 0.002  # regret@5 differences below this are a tie (tau decides)
TAU_TOLERANCE = 0.05  # ... and tau must then be better by more than this


def sample_space(space: list[Variant], size: int, seed: int = 0) -> list[Variant]:
    """A reproducible sample, always keeping one static variant per thread count
    (so every loop anchors the thread-count exponent) and, room permitting, one
    variant of each other schedule kind (so the schedule factors can be fitted)."""
    if len(space) <= size:
        return list(space)
    anchors: dict[object, Variant] = {}
    for v in space:
        if v.schedule == "static" and v.chunk is None:
            anchors.setdefault(v.threads, v)
    rng = random.Random(seed)
    for kind in ("dynamic", "guided"):
        kinds = [v for v in space if v.schedule == kind]
        if kinds and len(anchors) < size:
            anchors[kind] = rng.choice(kinds)
    rest = [v for v in space if v not in anchors.values()]
    pick = rng.sample(rest, max(0, size - len(anchors)))
    return list(anchors.values()) + pick


def robust_time(times: list[float]) -> tuple[float | None, int]:
    """(median of the runs left after dropping stragglers, runs dropped).

    A shared machine sometimes stalls one run for minutes; such a run says
    nothing about the variant. Runs above STRAGGLER_FACTOR times the lower
    median are dropped; None when what is left still spreads by more than
    NOISY_SPREAD (the variant is then not used as data).
    """
    ts = sorted(t for t in times if t and t > 0)
    if not ts:
        return None, 0
    low = ts[(len(ts) - 1) // 2]
    kept = [t for t in ts if t <= STRAGGLER_FACTOR * low]
    median = kept[len(kept) // 2]
    if len(kept) > 1 and (kept[-1] - kept[0]) / median > NOISY_SPREAD:
        return None, len(ts) - len(kept)
    return median, len(ts) - len(kept)


def unidentifiable(
    samples: list[Sample], machine: Machine, name: str, profile: RuntimeProfile | None = None
) -> str:
    """Why ``name`` cannot be fitted on ``samples`` ('' when it can).

    Every exponent needs its feature to vary independently of the others:
    a sample of static variants only, say, leaves the schedule factors
    undetermined and the fit extrapolates wildly. Checked on the columns the fit
    sees: logs, 0/1 schedule indicators as they are; for a model fitted within loops
    (the extended one), the variant features as they vary within each loop (the
    loop-level features, and a loop's work split over its threads, which they and the
    thread count determine, are the across-loop stage's).
    """
    X, y, names, groups = _xy(samples, machine, name, "wall", profile)
    if len(y) < 2 * (len(names) + 1):
        return f"{len(y)} measured variants, at least {2 * (len(names) + 1)} needed"
    columns = design(X, list(names))  # a logged indicator is 0 for both kinds
    flat = [n for n, col in zip(names, columns.T, strict=True) if np.ptp(col) == 0]
    if flat:
        return f"{', '.join(flat)} never varied in the sample"
    if make_model(name)._fit_mode() == "within":
        # within a loop, its work per thread is its work over the thread count: the fit
        # determines their joint effect, which is all a prediction uses
        joint = {"x2_ops_per_thread"} if "x4_threads" in names else set()
        keep = [i for i, n in enumerate(names) if n not in LOOP_LEVEL_FEATURES | joint]
        full = _within_loops(columns[:, keep], np.asarray(groups))
    else:
        full = np.column_stack([np.ones(len(y)), columns])
    if np.linalg.matrix_rank(full) < full.shape[1]:
        return "features vary together in the sample (measure more variants per loop)"
    return ""


def _within_loops(columns: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """Each column minus its mean over the samples of the same loop."""
    _, inverse = np.unique(groups, return_inverse=True)
    sums = np.zeros((inverse.max() + 1, columns.shape[1]))
    np.add.at(sums, inverse, columns)
    means = sums / np.bincount(inverse)[:, None]
    return columns - means[inverse]


def _xy(
    samples: list[Sample],
    machine: Machine,
    name,
    target: str,
    profile: RuntimeProfile | None = None,
):
    rows = [(s.record, s.variant) for s in samples]
    X, names = feature_matrix(rows, machine, name, profile)
    y = np.array([_target(s, target) for s in samples])
    groups = np.array([s.record.id for s in samples])
    keep = np.array([_usable(s, target) for s in samples], dtype=bool)
    return X[keep], y[keep], names, groups[keep]


def _target(s: Sample, target: str) -> float:
    return s.wall_s if target == "wall" else (s.cpu_s or np.nan)


def _usable(s: Sample, target: str) -> bool:
    """A measured time a fit can take (the rows ``_xy`` keeps)."""
    y = _target(s, target)
    return bool(np.isfinite(y) and y > 0)


def fit_models(samples: list[Sample], machine: Machine, result: CalibrationResult) -> None:
    for target in ("wall", "cpu"):
        for name in MODEL_NAMES:
            why = unidentifiable(samples, machine, name, result.profile)
            if why:
                result.refused[name] = why
                continue
            X, y, names, groups = _xy(samples, machine, name, target, result.profile)
            if len(y) < len(names) + 2:
                continue
            model = make_model(name, target=target).fit(X, y, groups=groups)
            pred = model.predict(X)
            rel = np.abs(pred - y) / y
            result.models[(name, target)] = model
            result.fit_quality[(name, target)] = {
                "samples": int(len(y)),
                "r2_log": float(model.score(X, y)),
                "mean_abs_rel_error": float(rel.mean()),
            }


def held_out_splits(samples: list[Sample]) -> Iterator[tuple[str, list[Sample], list[Sample]]]:
    """(held-out program, rows to fit on, rows to evaluate) for each program (``kernel``)
    in turn: scikit-learn's leave-one-group-out, so no program's loops are on both sides,
    which is how a user meets the model (fitted on programs that are not theirs)."""
    from sklearn.model_selection import LeaveOneGroupOut

    groups = [s.kernel for s in samples]
    if len(set(groups)) < 2:
        return
    for fit_idx, test_idx in LeaveOneGroupOut().split(samples, groups=groups):
        yield (
            samples[test_idx[0]].kernel,
            [samples[i] for i in fit_idx],
            [samples[i] for i in test_idx],
        )


def _first_pick_gains(
    rows: list[Sample], predicted: np.ndarray, measured: np.ndarray, cores: int = 0
) -> tuple[float, float] | None:
    """(predicted, measured) gain of the model's first pick over the original on one
    held-out loop (``predicted``/``measured``: the rows ``_xy`` kept, in order), as the
    rank mode picks it (no more threads than ``cores``)."""
    kept = [s for s in rows if _usable(s, "wall")]
    base = [i for i, s in enumerate(kept) if s.variant == BASELINE]
    others = [i for i, s in enumerate(kept) if s.variant != BASELINE]
    if len(kept) != len(predicted) or not base or not others:
        return None
    b = base[0]
    k, gain = first_pick(
        float(predicted[b]),
        [float(predicted[i]) for i in others],
        [kept[i].variant.threads for i in others],
        cores,
    )
    return gain, float(measured[b]) / float(measured[others[k]])


def leave_one_kernel_out(
    samples: list[Sample], machine: Machine, result: CalibrationResult, k: int = 5
) -> None:
    """Fit on all kernels but one, rank the held-out kernel's measured variants."""
    names = [n for n in MODEL_NAMES if n not in result.refused]
    scores: dict[str, list[HeldOut]] = {n: [] for n in names}
    pairs: dict[str, list[tuple[np.ndarray, np.ndarray]]] = {n: [] for n in names}
    picks: dict[str, list[tuple[float, float]]] = {n: [] for n in names}
    for _held, train, test in held_out_splits(samples):
        for name in names:
            try:
                X, y, _, groups = _xy(train, machine, name, "wall", result.profile)
                model = make_model(name, target="wall").fit(X, y, groups=groups)
            except (FeatureError, ValueError, np.linalg.LinAlgError):
                continue
            for loop_id in sorted({s.record.id for s in test}):
                rows = [s for s in test if s.record.id == loop_id]
                Xt, yt, _, _ = _xy(rows, machine, name, "wall", result.profile)
                if len(yt) < 2:
                    continue
                predicted = np.asarray(model.predict(Xt), dtype=float)
                pairs[name].append((np.log(predicted), np.log(np.asarray(yt, dtype=float))))
                pick = _first_pick_gains(rows, predicted, yt, machine.cores)
                if pick is not None:
                    picks[name].append(pick)
                q = evaluate(predicted, yt, k=k)
                h = HeldOut(
                    loop_id,
                    name,
                    q.kendall_tau,
                    q.mean_abs_rel_error,
                    q.regret.get(1),
                    q.regret.get(5),
                    q.best_pruned,
                )
                result.held_out.append(h)
                scores[name].append(h)
    # its samples hold one variant of each set of twins: the noise stays the default
    result.search_priors = {n: SearchPrior.fit(pairs[n]) for n in names if pairs[n]}
    result.ship_rules = {n: ShipRule.fit(picks[n]) for n in names if picks[n]}
    if len(names) == 1:
        result.preferred = names[0]
        result.reason = f"the only model the sample could fit ({', '.join(result.refused)} not)"
    elif all(scores.values()):
        by_loop = {n: {h.kernel: (h.regret5, h.tau) for h in hs} for n, hs in scores.items()}
        result.preferred, result.reason = prefer(by_loop)
    else:
        result.reason = "too few kernels to compare; extended by default"


def held_out_score(result: CalibrationResult, name: str) -> tuple[float, float] | None:
    """(geomean regret@5, mean tau) of ``name`` over the held-out kernels, if scored."""
    hs = [h for h in result.held_out if h.model == name]
    taus = [h.tau for h in hs if h.tau is not None]
    r5 = geomean_regret([h.regret5 for h in hs])
    if r5 is None:
        return None
    return r5, float(np.mean(taus)) if taus else 0.0


def score_model(
    model,
    samples: list[Sample],
    machine: Machine,
    k: int = 5,
    profile: RuntimeProfile | None = None,
) -> tuple[float, float] | None:
    """(geomean regret@5, mean tau) of a fitted model ranking every sampled loop."""
    regrets, taus = [], []
    for loop_id in sorted({s.record.id for s in samples}):
        rows = [s for s in samples if s.record.id == loop_id]
        try:
            X, y, _, _ = _xy(rows, machine, list(model.feature_names_), "wall", profile)
        except FeatureError:
            continue
        if len(y) < 2:
            continue
        q = evaluate(model.predict(X), y, k=k)
        regrets.append(q.regret.get(5))
        if q.kendall_tau is not None:
            taus.append(q.kendall_tau)
    r5 = geomean_regret(regrets)
    return None if r5 is None else (r5, float(np.mean(taus)) if taus else 0.0)


def decide_adoption(
    result: CalibrationResult,
    current_model,
    samples: list[Sample],
    machine: Machine,
    current_profile: RuntimeProfile | None = None,
) -> None:
    """Adopt the new coefficients only if they rank kernels they did not see better,
    by more than the noise, than the coefficients in use rank the same kernels, and
    only if the sample identified every model (no model refused).

    The comparison favours the current coefficients (they may have been fitted
    on these very kernels), so calibrating cannot make the default worse.
    """
    if (result.preferred, "wall") not in result.models:
        result.verdict = "nothing was fitted: " + "; ".join(
            f"{n}: {why}" for n, why in result.refused.items()
        )
        return
    if result.refused:  # the sample did not cover what it promised: adopt nothing
        result.verdict = (
            "not adopted: the sample could not identify "
            + "; ".join(f"the {n} model ({why})" for n, why in result.refused.items())
            + "; a larger --sample covers every schedule kind and thread count"
        )
        return
    new = held_out_score(result, result.preferred)
    cur = (
        score_model(current_model, samples, machine, profile=current_profile)
        if current_model is not None
        else None
    )
    if cur is not None:
        result.current = {"regret5": cur[0], "tau": cur[1]}
    if new is None:
        result.verdict = "the new coefficients could not be scored on held-out kernels"
        return
    if cur is None:
        result.adopted = True
        result.verdict = "no coefficients in use could be scored: the new ones are adopted"
        return
    # better by more than the noise: a tie keeps the coefficients in use
    better = new[0] < cur[0] - ADOPT_TOLERANCE or (
        abs(new[0] - cur[0]) <= ADOPT_TOLERANCE and new[1] > cur[1] + TAU_TOLERANCE
    )
    result.adopted = better
    result.verdict = (
        f"held-out regret@5 {new[0]:.1%} and tau {new[1]:.2f} against {cur[0]:.1%} and "
        f"{cur[1]:.2f} for the coefficients in use: "
        + ("adopted" if better else "not adopted, the coefficients in use stay")
    )


def samples_of(
    kernel: str,
    record: LoopRecord,
    measured,
    result: CalibrationResult,
) -> list[Sample]:
    """Training rows from one loop's sweep: stragglers dropped, noisy variants left out."""
    out = []
    for vr in [measured.baseline, *measured.variants]:
        if vr is None or not vr.ok or not vr.times_s:
            continue
        wall, dropped = robust_time(list(vr.times_s))
        result.stragglers += dropped
        if wall is None:
            result.noisy += 1
            continue
        cpu = sorted(vr.cpu_s)[len(vr.cpu_s) // 2] if vr.cpu_s else None
        out.append(Sample(kernel, record, vr.variant or BASELINE, wall, cpu))
    return out


def kernel_files(directory: str | Path) -> list[Path]:
    return sorted(Path(directory).glob("*.c"))


def conclude(
    result: CalibrationResult,
    machine: Machine,
    store,
    force: bool = False,
) -> None:
    """Fit, judge on held-out kernels against the coefficients in use, and store the
    new coefficients (with the runtime profile they were fitted with) only if adopted.

    An adopted calibration replaces everything stored for this machine before.
    """
    fit_models(result.samples, machine, result)
    leave_one_kernel_out(result.samples, machine, result)
    current = choose_model(machine, store, target="wall")
    decide_adoption(result, current.model, result.samples, machine, current.profile)
    result.current["source"] = current.source
    if not result.models or not (result.adopted or force):
        return
    fp = store.add_machine(machine)
    store.delete_models(fp)
    for (name, target), model in result.models.items():
        prior = result.search_priors.get(name)
        extra = {"search_prior": prior.to_dict()} if prior is not None and prior.loops else {}
        rule = result.ship_rules.get(name)
        if rule is not None and rule.loops:
            extra["ship_rule"] = rule.to_dict()
        store.save_model(name, fp, target, model.to_dict(**extra))
    store.save_model(PREFERENCE, fp, "wall", {"model": result.preferred, "reason": result.reason})
    if result.profile is not None:
        store.save_model(PROFILE_NAME, fp, "machine", result.profile.to_dict())
    if not result.adopted:
        result.verdict += " (adopted anyway: --force)"
    result.adopted = True

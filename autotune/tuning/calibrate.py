"""Calibration: measure a sample of every kernel's variant space, fit the models.

The faithful (seed 004) and extended power-law models are fitted on the same
measurements; leave-one-kernel-out ranking quality decides which one ``rank``
and ``tune`` use by default, so the choice is made on kernels each fit did not
see.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from autotune.frontend.records import LoopRecord
from autotune.measure.machine import Machine
from autotune.models.features import FeatureError, feature_matrix
from autotune.models.powerlaw import make_model
from autotune.models.quality import evaluate, geomean_regret
from autotune.variants.space import Variant

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


def sample_space(space: list[Variant], size: int, seed: int = 0) -> list[Variant]:
    """A reproducible sample, always keeping one static variant per thread count
    so every loop anchors the thread-count exponent."""
    if len(space) <= size:
        return list(space)
    anchors = {}
    for v in space:
        if v.schedule == "static" and v.chunk is None:
            anchors.setdefault(v.threads, v)
    rest = [v for v in space if v not in anchors.values()]
    rng = random.Random(seed)
    pick = rng.sample(rest, max(0, size - len(anchors)))
    return list(anchors.values()) + pick


def _xy(samples: list[Sample], machine: Machine, name: str, target: str):  # noqa: ANN202
    rows = [(s.record, s.variant) for s in samples]
    X, names = feature_matrix(rows, machine, name)
    y = np.array([s.wall_s if target == "wall" else (s.cpu_s or np.nan) for s in samples])
    groups = np.array([s.record.id for s in samples])
    keep = np.isfinite(y) & (y > 0)
    return X[keep], y[keep], names, groups[keep]


def fit_models(samples: list[Sample], machine: Machine, result: CalibrationResult) -> None:
    for target in ("wall", "cpu"):
        for name in MODEL_NAMES:
            X, y, names, groups = _xy(samples, machine, name, target)
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


def leave_one_kernel_out(samples: list[Sample], machine: Machine, result: CalibrationResult,
                         k: int = 5) -> None:
    """Fit on all kernels but one, rank the held-out kernel's measured variants."""
    kernels = sorted({s.kernel for s in samples})
    scores: dict[str, list[HeldOut]] = {n: [] for n in MODEL_NAMES}
    for held in kernels:
        train = [s for s in samples if s.kernel != held]
        test = [s for s in samples if s.kernel == held]
        for name in MODEL_NAMES:
            try:
                X, y, _, groups = _xy(train, machine, name, "wall")
                model = make_model(name, target="wall").fit(X, y, groups=groups)
            except (FeatureError, ValueError, np.linalg.LinAlgError):
                continue
            for loop_id in sorted({s.record.id for s in test}):
                rows = [s for s in test if s.record.id == loop_id]
                Xt, yt, _, _ = _xy(rows, machine, name, "wall")
                if len(yt) < 2:
                    continue
                q = evaluate(model.predict(Xt), yt, k=k)
                h = HeldOut(loop_id, name, q.kendall_tau, q.mean_abs_rel_error,
                            q.regret.get(1), q.regret.get(5), q.best_pruned)
                result.held_out.append(h)
                scores[name].append(h)
    summary = {}
    for name, hs in scores.items():
        taus = [h.tau for h in hs if h.tau is not None]
        summary[name] = (geomean_regret([h.regret5 for h in hs]) or 0.0,
                         -float(np.mean(taus)) if taus else 0.0)
    if all(scores.values()):
        result.preferred = min(summary, key=lambda n: summary[n])
        r5, tau = summary[result.preferred]
        other = [n for n in MODEL_NAMES if n != result.preferred][0]
        o_r5, o_tau = summary[other]
        result.reason = (f"ranked held-out kernels better (geomean regret@5 {r5:.1%} vs "
                         f"{o_r5:.1%}, mean tau {-tau:.2f} vs {-o_tau:.2f})")
    else:
        result.reason = "too few kernels to compare; extended by default"


def kernel_files(directory: str | Path) -> list[Path]:
    return sorted(Path(directory).glob("*.c"))

"""Rank a loop's variants by predicted time: no compile, no run."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from autotune.frontend.records import LoopRecord
from autotune.measure.machine import Machine
from autotune.models.features import FeatureError, feature_matrix
from autotune.tuning.modelchoice import ChosenModel
from autotune.tuning.search_prior import SearchPrior
from autotune.tuning.ship_rule import ShipRule, first_pick
from autotune.variants.equivalence import Equivalent, collapse
from autotune.variants.space import BASELINE, Variant


@dataclass
class RankedVariant:
    variant: Variant
    predicted_s: float | None
    measured_s: float | None = None
    # ranked (only predicted) | pruned (tune measured others) | ok | wrong-output | crash |
    # timeout | compile-error
    status: str = "ranked"
    message: str = ""
    runs: int = 0
    times_s: list[float] = field(default_factory=list)  # the measured runs (intervals)

    def to_dict(self) -> dict:
        return {
            "key": self.variant.key,
            "schedule": self.variant.schedule,
            "chunk": self.variant.chunk,
            "threads": self.variant.threads,
            "predicted_s": self.predicted_s,
            "measured_s": self.measured_s,
            "status": self.status,
            "message": self.message,
            "runs": self.runs,
        }


@dataclass
class LoopRanking:
    record: LoopRecord
    variants: list[RankedVariant] = field(default_factory=list)  # best predicted first
    baseline_predicted_s: float | None = None
    error: str = ""  # why this loop could not be ranked
    equivalent: list[Equivalent] = field(default_factory=list)  # runtime duplicates, unmeasured
    search_prior: SearchPrior = field(default_factory=SearchPrior)  # how far the model may be off
    ship_rule: ShipRule = field(default_factory=ShipRule)  # when its first pick ships unmeasured
    cores: int = 0  # the machine's: an unmeasured pick runs no more threads (0: any)
    # every variant runs as the loop as written (one thread as written): nothing to measure
    # for the loop alone, while its region's thread count may still be tried
    as_written_only: bool = False

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def pick(self) -> RankedVariant | None:
        """What the build hook's rank mode would compile: the best predicted variant that
        does not oversubscribe the cores (``ship_rule.first_pick``)."""
        if not self.variants or self.baseline_predicted_s is None:
            return self.variants[0] if self.variants else None
        k, _ = first_pick(
            self.baseline_predicted_s,
            [v.predicted_s for v in self.variants],
            [v.variant.threads for v in self.variants],
            self.cores,
        )
        return self.variants[k]

    @property
    def first_gain(self) -> float | None:
        """The original's predicted time over the pick's (None where either is missing)."""
        pick = self.pick
        first = pick.predicted_s if pick is not None else None
        base = self.baseline_predicted_s
        return base / first if first and base else None

    @property
    def measured_only(self) -> str:
        """Why no variant of this loop ships unmeasured whatever its prediction ('': the
        ship rule decides): an ordered region serialises the threads in a way the model
        does not see; a floating-point reduction's variants add its partial sums in
        another order, and may print other last digits that nothing unmeasured checks."""
        if self.record.directive.clauses.ordered:
            return (
                "the loop has an ordered region, whose serialisation of the threads the "
                "model does not see: only a measured variant ships ('autotune tune')"
            )
        if self.record.reassociates:
            return (
                f"{self.record.reassociates[0]}; unmeasured, nothing checks them: only a "
                "measured variant ships ('autotune tune' verifies the output within --rtol)"
            )
        return ""

    def ships_unmeasured(self) -> tuple[bool, str]:
        """Whether the build hook's rank mode compiles rank 1 without measuring it, and
        why (not): ``measured_only``, then the ship rule."""
        if self.measured_only:
            return False, self.measured_only
        gain = self.first_gain
        if gain is None or gain <= 1.0:
            return False, "predicted: the original is fastest"
        if not self.ship_rule.ships(gain):
            return False, self.ship_rule.why_not(gain)
        return True, f"predicted {gain:.2f}x faster"

    def to_dict(self, top: int | None = None) -> dict:
        """JSON-ready; ``top`` keeps only the first ``top`` variants."""
        return {
            "id": self.id,
            "tunable": self.record.tunable and not self.error,
            "reason": self.error,
            "baseline_predicted_s": self.baseline_predicted_s,
            "variants": [v.to_dict() for v in (self.variants[:top] if top else self.variants)],
            "equivalent": [e.to_dict() for e in self.equivalent],
            "kept": dict(self.record.kept),
            "reassociates": list(self.record.reassociates),
            "facts": self.record.facts,
            "trip_count": self.record.trip_count,
            "unmeasured_min_gain": self.ship_rule.min_gain,
            "unmeasured": self._unmeasured(),
        }

    def _unmeasured(self) -> dict | None:
        """What the build hook's rank mode does with this loop (None: nothing ranked)."""
        if not self.variants:
            return None
        ships, why = self.ships_unmeasured()
        return {
            "ships": ships,
            "variant": self.pick.variant.key if ships and self.pick else None,
            "why": why,
        }


def rank_loop(
    record: LoopRecord,
    variants: list[Variant],
    chosen: ChosenModel,
    machine: Machine,
    runtime: str = "unknown",
) -> LoopRanking:
    """Predict every variant's time with ``chosen`` and sort, fastest first.

    The baseline (the loop as written) is predicted too so that the gain a
    variant promises can be shown before anything is compiled. Variants that
    ``runtime`` executes identically to another are set aside (``equivalent``).
    """
    ranking = LoopRanking(record, cores=machine.cores)
    variants, ranking.equivalent = collapse(record, variants, runtime)
    if not record.tunable:
        ranking.error = record.reason or "not tunable"
        return ranking
    if not variants and any(e.same_as == BASELINE for e in ranking.equivalent):
        ranking.as_written_only = True
        rules = {e.rule.removeprefix("the loop as written: ") for e in ranking.equivalent}
        said = sorted(rules - {"the loop as written"})
        ranking.error = "every variant runs as the loop as written" + (
            f": {'; '.join(said)}" if said else ""
        )
        return ranking
    if not variants:
        ranking.error = "empty variant space"
        return ranking
    model = chosen.model
    metadata = getattr(model, "metadata_", {})
    ranking.search_prior = SearchPrior.from_dict(metadata.get("search_prior"))
    ranking.ship_rule = ShipRule.of(model)
    names = list(model.feature_names_)
    try:
        X, _ = feature_matrix(
            [(record, v) for v in [BASELINE, *variants]], machine, names, profile=chosen.profile
        )
    except FeatureError as exc:
        ranking.error = str(exc)
        return ranking
    pred = np.asarray(model.predict(X), dtype=float)
    ranking.baseline_predicted_s = float(pred[0])
    order = np.argsort(pred[1:], kind="stable")
    ranking.variants = [RankedVariant(variants[i], float(pred[1 + i])) for i in order]
    return ranking

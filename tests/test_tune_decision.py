"""tune's choice: verified only, beyond noise, and confirmed when timings are noisy.

The sweep is replaced by a stand-in returning fixed results so that the
decision logic is checked exactly (the CLI tests drive the real sweep)."""

from __future__ import annotations

from dataclasses import dataclass, field

from autotune.frontend.records import Directive, LoopRecord
from autotune.measure.machine import Machine
from autotune.measure.results import LoopResult, VariantResult
from autotune.measure.sweep import LoopMeasurer, SweepOptions
from autotune.tuning.ranking import LoopRanking, RankedVariant
from autotune.tuning.tune import tune_loop
from autotune.variants.space import BASELINE, Variant

A, B, C = Variant("dynamic", 8, 2), Variant("static", None, 2), Variant("guided", None, 2)


def vres(variant: Variant, times: list[float], status: str = "ok") -> VariantResult:
    ordered = sorted(times)
    median = ordered[len(ordered) // 2]
    return VariantResult(
        variant, status, times_s=times, measured_s=median, spread=(max(times) - min(times)) / median
    )


@dataclass
class FakeSweep:
    """A ``LoopMeasurer`` answering from a script (the protocol Sweep implements)."""

    answers: list[LoopResult]
    options: SweepOptions = field(default_factory=SweepOptions)
    machine: Machine | None = None
    calls: list[tuple[int, list[str]]] = field(default_factory=list)
    target: str = "wall"  # what the model predicts, as Sweep declares it

    def measure_loop(self, record, variants, repetitions=None):
        reps = repetitions or self.options.repetitions
        self.calls.append((reps, [v.key for v in variants]))
        return self.answers[len(self.calls) - 1]


def ranking() -> LoopRanking:
    d = Directive("omp parallel for", "parallel for", "f.c", 1)
    r = LoopRanking(LoopRecord("f.c:2", "f.c", 2, "f", d, d))
    r.variants = [RankedVariant(v, 1.0) for v in (A, B, C)]
    return r


def result(base: list[float], *variants: VariantResult) -> LoopResult:
    return LoopResult("f.c:2", vres(BASELINE, base), list(variants))


def test_a_failed_variant_is_never_chosen_however_fast():
    sweep = FakeSweep(
        [
            result(
                [1.0, 1.01, 1.0],
                vres(A, [0.1, 0.1, 0.1], "wrong-output"),
                vres(B, [0.8, 0.81, 0.8]),
            )
        ]
    )
    res = tune_loop(sweep, ranking(), top=2, search="top")
    assert res.best.variant == B and res.speedup == 1.0 / 0.8
    assert sweep.calls == [(3, [A.key, B.key])]  # only the top 2: C pruned
    assert res.measured_programs == 3


def test_a_gain_within_the_noise_keeps_the_original():
    sweep = FakeSweep([result([1.0, 1.02, 0.99], vres(A, [0.99, 0.98, 0.985]))])
    res = tune_loop(sweep, ranking(), top=1, search="top")
    assert res.best is None and res.speedup == 1.0 and "original kept" in res.decision


def test_noisy_winner_is_confirmed_or_dropped_on_more_runs():
    noisy = result([1.0, 4.0, 1.1], vres(A, [0.3, 2.0, 0.4]))  # spreads far above 25%
    dropped = FakeSweep([noisy, result([1.0] * 9, vres(A, [0.99] * 9))])
    res = tune_loop(dropped, ranking(), top=1, search="top")
    assert dropped.calls == [(3, [A.key]), (9, [A.key])]  # only the two contenders, 3x runs
    assert res.best is None and "re-measuring" in res.decision
    kept = FakeSweep([noisy, result([1.0] * 9, vres(A, [0.5] * 9))])
    res = tune_loop(kept, ranking(), top=1, search="top")
    assert res.best.variant == A and res.speedup == 2.0 and "confirmed" in res.decision
    assert [w for w in res.warnings if w.startswith("large spread")] == []  # quiet after runs
    res = tune_loop(FakeSweep([noisy, noisy]), ranking(), top=1, search="top")
    spread = [w for w in res.warnings if w.startswith("large spread")]
    assert len(spread) == 1 and "the original" in spread[0]  # one warning, from final timings
    assert kept.options.repetitions == 3  # the user's setting is restored


def test_quiet_timings_need_no_confirmation():
    sweep = FakeSweep([result([1.0, 1.01, 1.0], vres(A, [0.5, 0.51, 0.5]))])
    res = tune_loop(sweep, ranking(), top=1, search="top")
    assert res.best.variant == A and len(sweep.calls) == 1


def test_one_slow_outlier_does_not_veto_a_clear_gain():
    """A single 10x-slow run (common on a shared VM) must not hide a 2x gain."""
    base = [1.0, 1.01, 0.99, 1.0, 10.0, 1.02, 0.98, 1.0, 1.01]
    sweep = FakeSweep([result(base, vres(A, [0.5, 0.5, 0.51, 5.0, 0.49, 0.5, 0.5, 0.52, 0.5]))])
    res = tune_loop(sweep, ranking(), top=1, search="top")
    assert res.best.variant == A and len(sweep.calls) == 1  # quiet by the robust measure


def test_the_stand_in_and_the_sweep_implement_one_measuring_protocol(tmp_path):
    """tune_loop asks a measurer for its declared options, target, machine and
    measure_loop: the stand-in here and the real Sweep both provide them, and building a
    Sweep reads, probes and stores nothing until it is asked."""
    from autotune.measure.build import BuildOptions
    from autotune.measure.store import Store
    from autotune.measure.sweep import Sweep

    assert isinstance(FakeSweep([]), LoopMeasurer)
    with Store(tmp_path / "runs.db") as store:
        sweep = Sweep(tmp_path / "not_yet.c", BuildOptions(), SweepOptions(), store)
        assert isinstance(sweep, LoopMeasurer)
        assert store.runs() == [] and not (tmp_path / "not_yet.c").exists()

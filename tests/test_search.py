"""The sequential, model-guided search: budget, safety, and finding a known optimum.

The loop is a real one (a triangular update parsed and analysed from C), so
the search's coordinates and the model's predictions come from the real
pipeline; only the measured times are scripted, which makes the optimum known.
The end-to-end run with gcc is in test_tune.py.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import pytest

from autotune.analysis import analyze_file
from autotune.measure.machine import Machine
from autotune.measure.results import LoopResult, VariantResult
from autotune.measure.sweep import SweepOptions
from autotune.tuning.modelchoice import choose_model
from autotune.tuning.ranking import rank_loop
from autotune.tuning.search import Candidate, SequentialSearch, variant_coords
from autotune.tuning.search_prior import NOISE_FLOOR
from autotune.tuning.tune import tune_loop
from autotune.variants.space import BASELINE, Variant, default_space

TRIANGULAR = r"""
#define N 1200
double a[N][N], x[N], y[N];
int main(void) {
  for (int i = 0; i < N; i++) { x[i] = i; for (int j = 0; j < N; j++) a[i][j] = i ^ j; }
#pragma omp parallel for
  for (int i = 0; i < N; i++) {
    double s = 0.0;
    for (int j = 0; j <= i; j++) s += a[i][j] * x[j];
    y[i] = s;
  }
  return (int)y[N - 1] & 1;
}
"""
MACHINE = Machine("test cpu", 8, 32768, 8, 1 << 20, 16, 32 << 20, 16, 64)


@pytest.fixture(scope="module")
def loop(tmp_path_factory):
    src = tmp_path_factory.mktemp("search") / "tri.c"
    src.write_text(TRIANGULAR)
    (record,) = analyze_file(str(src), threads=MACHINE.cores).loops
    ranking = rank_loop(
        record,
        default_space(record, MACHINE.cores),
        # the 2-core coefficients, whose ranking of this loop the scripted times assume
        choose_model(dataclasses.replace(MACHINE, cores=2)),
        MACHINE,
        runtime="libgomp",
    )
    assert not ranking.error and len(ranking.variants) > 20
    return record, ranking


def scripted_times(ranking) -> dict[Variant, float]:
    """A loop that scales with threads better than the model predicts, the per-loop
    error the search corrects: each doubling of the thread count is 1.5x faster than
    the model says, oversubscription included (as when two threads per core won on a
    many-core VM). The optimum is then the model's best variant at 16 threads, which
    its top 5 do not contain."""
    return {
        rv.variant: rv.predicted_s * (rv.variant.threads / 8) ** -0.585 for rv in ranking.variants
    }


def candidates(record, ranking):
    cands = [
        Candidate(rv.variant, rv.predicted_s, variant_coords(record, rv.variant, MACHINE))
        for rv in ranking.variants
    ]
    origin = Candidate(
        BASELINE, ranking.baseline_predicted_s, variant_coords(record, BASELINE, MACHINE)
    )
    return origin, cands


def test_search_finds_a_known_optimum_the_model_does_not_rank_first(loop):
    record, ranking = loop
    times = scripted_times(ranking)
    optimum = min(times, key=times.get)
    model_top5 = [rv.variant for rv in ranking.variants[:5]]
    assert optimum not in model_top5  # the model alone would miss it with K = 5
    origin, cands = candidates(record, ranking)
    calls: list[Variant] = []

    def measure(v: Variant) -> float:
        calls.append(v)
        return times[v]

    original = ranking.baseline_predicted_s  # 8 threads as written
    found = SequentialSearch(budget=5).run(origin, original, cands, measure)
    assert found.best.variant == optimum
    assert len(calls) == len(set(calls)) <= 5
    assert set(found.posterior_s) == set(times)


def test_search_stops_early_when_nothing_left_can_win(loop):
    """The original measured far faster than every variant is predicted, and the first
    measurement agrees: the search stops before spending its budget."""
    record, ranking = loop
    origin, cands = candidates(record, ranking)
    slow = {rv.variant: 50.0 for rv in ranking.variants}
    found = SequentialSearch(budget=5).run(origin, 0.01, cands, slow.get)
    assert len(found.steps) < 5 and "chance" in found.stopped


@dataclass
class ScriptedSweep:
    """Answers measure_loop from scripted times, like Sweep: the original is part of
    every answer, a variant's status comes from the script."""

    times: dict[Variant, float]
    failing: set[Variant] = field(default_factory=set)
    baseline_s: float = 1.0
    machine: Machine = MACHINE
    options: SweepOptions = field(default_factory=SweepOptions)
    calls: list[list[Variant]] = field(default_factory=list)
    target: str = "wall"  # what the model predicts, as Sweep declares it

    def measure_loop(self, record, variants, repetitions=None):
        self.calls.append(list(variants))
        reps = repetitions or self.options.repetitions
        b = self.baseline_s
        base = VariantResult(BASELINE, "ok", times_s=[b] * reps, measured_s=b, spread=0.0)
        out = []
        for v in variants:
            if v in self.failing:
                out.append(VariantResult(v, "wrong-output", message="output differs"))
            else:
                t = self.times[v]
                out.append(VariantResult(v, "ok", times_s=[t] * reps, measured_s=t, spread=0.0))
        return LoopResult(record.id, base, out)


def test_tune_spends_at_most_k_plus_one_programs_and_never_picks_a_failure(loop):
    record, ranking = loop
    times = scripted_times(ranking)
    optimum = min(times, key=times.get)
    ranking = rank_loop(
        record,
        default_space(record, MACHINE.cores),
        choose_model(MACHINE),
        MACHINE,
        runtime="libgomp",
    )
    # the fastest computes a wrong result
    sweep = ScriptedSweep(times, failing={optimum}, baseline_s=ranking.baseline_predicted_s)
    res = tune_loop(sweep, ranking, top=5)
    measured = {v for call in sweep.calls for v in call}
    assert sweep.calls[0] == [] and len(measured) <= 5  # the original first, then <= K
    assert res.measured_programs == 1 + len(measured) <= 6
    assert res.best is None or (
        res.best.variant != optimum
        and res.best.status == "ok"
        and res.best.measured_s < sweep.baseline_s
    )


def test_tune_keeps_the_original_when_every_variant_is_slower(loop):
    record, ranking = loop
    ranking = rank_loop(
        record,
        default_space(record, MACHINE.cores),
        choose_model(MACHINE),
        MACHINE,
        runtime="libgomp",
    )
    sweep = ScriptedSweep({rv.variant: 1.3 for rv in ranking.variants})
    res = tune_loop(sweep, ranking, top=5)
    assert res.best is None and res.speedup == 1.0 and "original kept" in res.decision


def test_near_ties_are_raced_and_the_decision_is_the_fastest_median(loop):
    """Two variants within the noise band of each other both get the extra runs; the
    one chosen is the fastest of the larger samples."""
    record, _ = loop
    a, b = Variant("dynamic", 64, 8), Variant("guided", None, 8)
    ranking = rank_loop(record, [a, b], choose_model(MACHINE), MACHINE, runtime="libgomp")
    sweep = ScriptedSweep({a: 0.50, b: 0.505})
    res = tune_loop(sweep, ranking, top=2, search="top")
    assert sweep.calls[-1] and {v.key for v in sweep.calls[-1]} == {a.key, b.key}
    assert res.best.variant == a and "confirmed" in res.decision
    measured = sorted(
        (rv for rv in ranking.variants if rv.measured_s), key=lambda rv: rv.measured_s
    )
    assert measured[0] is res.best


def test_a_prior_that_ranks_the_best_last_is_found_out(loop):
    """A loop whose times run opposite to the model's order (its fastest ranked last):
    the measured variants show it, the search stops trusting the order, and the fastest
    is measured within 10 runs (the same search with its slope fixed at the model's
    walks down the ranking and has not found it in those 10), and its posterior then
    ranks the fastest first. The search takes each measurement to be as noisy as the
    recorded sweeps' twins say (its default); told these scripted times are exact
    (the noise floor), it finds the fastest within 7."""
    record, ranking = loop
    order = [rv.variant for rv in ranking.variants]
    predicted = [rv.predicted_s for rv in ranking.variants]
    times = dict(zip(reversed(order), predicted, strict=True))
    fastest = order[-1]
    assert min(times, key=times.get) == fastest
    origin, cands = candidates(record, ranking)
    found = SequentialSearch(budget=10).run(origin, ranking.baseline_predicted_s, cands, times.get)
    assert found.best.variant == fastest
    assert min(found.posterior_s, key=found.posterior_s.get) == fastest
    fixed = SequentialSearch(budget=10, slope_variance=1e-9)
    blind = fixed.run(origin, ranking.baseline_predicted_s, cands, times.get)
    assert blind.best.variant != fastest  # the same search trusting the order misses it
    exact = SequentialSearch(budget=7, noise_variance=NOISE_FLOOR)
    assert exact.run(origin, ranking.baseline_predicted_s, cands, times.get).best.variant == fastest


def test_search_prior_is_fitted_from_held_out_loops():
    """Slopes 1, 2 and 0 of log measured on log predicted, no scatter about the lines:
    the slope's variance is their mean squared distance from 1; fewer than three loops
    keep the defaults."""
    from autotune.tuning.search_prior import SLOPE_VARIANCE, VARIANT_VARIANCE, SearchPrior

    x = [0.0, 1.0, 2.0, 3.0]
    loops = [(x, [0.5 + b * v for v in x]) for b in (1.0, 2.0, 0.0)]
    prior = SearchPrior.fit(loops)
    assert prior.loops == 3 and prior.slope_variance == pytest.approx(2 / 3)
    assert prior.variant_variance == pytest.approx(1e-3)  # the floor: no scatter
    scattered = [(x, [v + e for v, e in zip(x, (0.1, -0.1, -0.1, 0.1), strict=True)])] * 3
    assert SearchPrior.fit(scattered).variant_variance == pytest.approx(0.02)
    default = SearchPrior.fit(loops[:2])
    assert (default.loops, default.variant_variance, default.slope_variance) == (
        0,
        VARIANT_VARIANCE,
        SLOPE_VARIANCE,
    )
    assert SearchPrior.from_dict(prior.to_dict()) == prior

"""Hypercube divide and conquer (seed 003): the worked example, the least-squares
component fits from the paper's traces, and the trace readers."""

import numpy as np
import pytest

from autotune.structmodels.hdc import (
    HypercubeDC,
    LinearCost,
    Traces,
    exchange_time,
    hypercube_levels,
)
from autotune.structmodels.traces import (
    TraceFormatError,
    paper_parallel_times,
    paper_traces,
    read_traces,
)

EXAMPLE = {"N": 1024000.0, "M": 2048000.0}
L, G = 2.43e-4, 1.51e-7


def test_worked_example_communication():
    # 3 levels x 2 (send + receive) x (0.000243 + 1024000 * 1.51e-7) = 0.929202 s.
    model = HypercubeDC().fit(paper_traces())
    pred = model.predict_one(EXAMPLE, 8, L, G)
    assert len(pred.levels) == 3
    assert pred.communication_s == pytest.approx(0.929202, abs=5e-7)
    assert exchange_time(1024000, L, G) == pytest.approx(2 * (0.000243 + 0.154624), abs=1e-9)


def test_paper_traces_fit_with_high_r2_and_legible_slopes():
    comps = HypercubeDC().fit(paper_traces()).components_
    # The paper: all coefficients of determination exceed 95%.
    assert all(c.r2_ > 0.95 for c in comps.values())
    # The legible slopes of its Table 3: divide 1.94e-08 per edge, combine 2.19e-07 per node.
    assert comps["divide"].coef_[0] == pytest.approx(1.94e-8, rel=5e-3)
    assert comps["combine"].coef_[0] == pytest.approx(2.19e-7, rel=5e-3)


def test_out_of_trend_values_are_corrected_only_on_request():
    printed = HypercubeDC().fit(paper_traces(corrected=False)).components_
    fixed = HypercubeDC().fit(paper_traces(corrected=True)).components_
    # The printed 0.01804 (ten times the trend) wrecks the sequential fit.
    assert printed["sequential"].r2_ < 0.5 < 0.95 < fixed["sequential"].r2_
    # The combine column has no flagged value: identical either way.
    assert printed["combine"].coef_ == pytest.approx(fixed["combine"].coef_)


def test_prediction_structure_and_measured_comparison():
    model = HypercubeDC().fit(paper_traces())
    pred = model.predict_one(EXAMPLE, 8, L, G)
    # Edges halve per level, nodes stay whole; the leaf works on M/P edges.
    assert [lv.sizes["M"] for lv in pred.levels] == [2048000, 1024000, 512000]
    assert all(lv.sizes["N"] == 1024000 for lv in pred.levels)
    assert pred.leaf_sizes == {"N": 1024000, "M": 256000}
    parts = sum(lv.divide_s + lv.combine_s + lv.exchange_s for lv in pred.levels)
    assert pred.total_s == pytest.approx(parts + pred.sequential_s)
    measured = {(n, m): t for _, n, m, t in paper_parallel_times()}[(1024000, 2048000)]
    assert measured == 2.102299
    # The paper's own prediction missed by 8.8%; ours should stay within 20%.
    assert abs(pred.total_s - measured) / measured < 0.20


def test_split_both_halves_every_size():
    model = HypercubeDC(split=("M", "N")).fit(paper_traces())
    pred = model.predict_one(EXAMPLE, 4, L, G)
    assert [lv.sizes["N"] for lv in pred.levels] == [1024000, 512000]
    assert pred.leaf_sizes == {"N": 256000, "M": 512000}


def test_linear_cost_recovers_known_coefficients():
    rng = np.random.default_rng(0)
    X = rng.uniform(1e3, 1e5, (30, 2))
    y = 3e-4 + 2e-8 * X[:, 0] + 5e-7 * X[:, 1]
    lc = LinearCost(("N", "M")).fit(X, y)
    assert lc.intercept_ == pytest.approx(3e-4, rel=1e-8)
    assert lc.coef_ == pytest.approx([2e-8, 5e-7], rel=1e-8)
    assert lc.r2_ == pytest.approx(1.0)
    assert lc.cost({"N": 1e4, "M": 1e4}) == pytest.approx(3e-4 + 2e-4 + 5e-3)


def test_power_of_two_required():
    assert hypercube_levels(1) == 0 and hypercube_levels(16) == 4
    with pytest.raises(ValueError):
        hypercube_levels(6)


def test_long_form_trace_file_and_errors(tmp_path):
    good = tmp_path / "t.csv"
    good.write_text(
        "# mine\ncomponent,N,M,seconds\n"
        + "".join(f"divide,,{m},{1e-8 * m}\n" for m in (100, 200, 400))
        + "".join(f"combine,{n},,{2e-7 * n}\n" for n in (100, 200, 400))
        + "".join(
            f"sequential,{n},{m},{1e-7 * n + 3e-7 * m}\n" for n in (100, 300) for m in (100, 400)
        )
    )
    traces = read_traces(good)
    assert isinstance(traces, Traces)
    model = HypercubeDC().fit(traces)
    assert model.components_["sequential"].coef_ == pytest.approx([1e-7, 3e-7], rel=1e-6)
    bad = tmp_path / "bad.csv"
    bad.write_text("component,N,M,seconds\ndivide,,100,fast\n")
    with pytest.raises(TraceFormatError) as exc:
        read_traces(bad)
    assert exc.value.location.endswith("bad.csv:2")
    with pytest.raises(ValueError, match="trace rows"):
        HypercubeDC().fit(Traces())  # no traces at all

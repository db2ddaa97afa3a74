"""predict_point: directions, skeletons, reference points, and the paper's cases."""

from importlib import resources

import pytest

from autotune.errors import UserError
from autotune.skeletons.predictor import parse_known, predict_point
from autotune.skeletons.scalability import penalty_table
from autotune.skeletons.skeleton import Skeleton
from autotune.skeletons.tables import SEQ, from_rows, parse_table


def _table(name, **where):
    text = (resources.files("autotune") / "data" / name).read_text()
    return parse_table(text, name, where or None)


def seq_time(n):
    return 1e-4 * n**2


def model(n, p):
    return seq_time(n) / p + 0.01 * p + 1e-3 * n


def _model_rows(sizes=range(100, 900, 100), pes=(1, 2, 3, 4), absolute=True):
    rows = [(n, p, model(n, p)) for n in sizes for p in pes]
    if absolute:
        rows += [(n, SEQ, seq_time(n)) for n in sizes]
    return rows


@pytest.mark.parametrize("n, p, direction", [(1000, 4, "n"), (800, 6, "p"), (1000, 6, "n,p")])
def test_directions_recover_an_exact_model(n, p, direction):
    pred = predict_point(_model_rows(), "parmap", n, p)
    assert pred.ok, pred.failure
    assert pred.direction == direction
    assert pred.t_seq.value == pytest.approx(seq_time(n), rel=1e-6)
    assert pred.time == pytest.approx(model(n, p), rel=1e-6)
    assert pred.reference.startswith("absolute")


def test_relative_reference_uses_t_n_1():
    pred = predict_point(_model_rows(absolute=False), "parmap", 1000, 3)
    assert pred.reference.startswith("relative")
    assert pred.t_seq.value == pytest.approx(model(1000, 1), rel=1e-6)
    assert pred.time == pytest.approx(model(1000, 3), rel=1e-6)


def test_measured_target_row_is_held_out_and_scored():
    pred = predict_point(_model_rows(), "parmap", 800, 4)
    assert pred.direction == "p"  # T(800) measured, p = 1..3 left at n = 800
    assert pred.measured == pytest.approx(model(800, 4))
    assert abs(pred.error) < 1e-6


def test_divide_and_conquer_uses_t_of_the_leaves():
    def dc_time(n, p):
        return 4 / p * seq_time(n / 4) + (seq_time(n) - 4 * seq_time(n / 4)) + 0.01 * p

    sizes = range(100, 900, 100)
    rows = [(n, p, dc_time(n, p)) for n in sizes for p in (1, 2, 4)]
    rows += [(n, SEQ, seq_time(n)) for n in sizes]
    sk = Skeleton("dc", branching=2, depth=2)
    pt = penalty_table(from_rows(rows), sk)
    assert pt.abar[(500.0, 4)] == pytest.approx(0.04)
    pred = predict_point(rows, sk, 1200, 4)
    assert pred.ok and pred.time == pytest.approx(dc_time(1200, 4), rel=1e-6)


def test_rabin_miller_known_value_choice_reproduces_table4_best():
    rm = _table("lobachev_rabin_miller_table4.csv")
    pred = predict_point(rm, "iteration", 11213, 8, known="n<=9689", mode="known")
    assert pred.t_seq.chosen == "lmpoly"
    assert pred.abar.chosen == "mean(loess+lm(poly))"
    assert pred.time == pytest.approx(21.78, abs=0.005)  # paper: 21.78 s, 0.01 %
    assert abs(pred.error) < 1e-3


def test_rabin_miller_real_life_asks_for_more_measurements():
    rm = _table("lobachev_rabin_miller_table4.csv")
    pred = predict_point(rm, "iteration", 11213, 8, known="n<=9689")
    assert not pred.ok and "take more measurements" in pred.failure
    assert pred.t_seq.holdout == [9689.0]
    with pytest.raises(UserError, match="take more measurements"):
        pred.require()


def test_gauss_and_lbm_known_value_choices_beat_the_paper():
    gauss = _table("lobachev_gauss_table1.csv")
    g = predict_point(gauss, "farm", 120, 7, known="n<=100", mode="known")
    assert abs(g.error) < 0.0169  # paper: -1.69 %
    assert g.time == pytest.approx(6.193, abs=0.001)
    lbm = _table("lobachev_lbm_table2.csv")
    b = predict_point(lbm, "parmap", None, 262144, known="p<=196608", mode="known")
    assert b.direction == "p" and b.abar.chosen == "lmpoly"
    assert b.abar.value == pytest.approx(3.18, abs=0.005)
    assert b.time == pytest.approx(5.215, abs=0.001)  # paper: 5.196 s, -1.47 %


def test_reference_pe_count_has_zero_penalty():
    kara = _table("lobachev_karatsuba_table3.csv", set="nonuniform")
    pred = predict_point(kara, "dc", 128, 8, known="n<=64", method="lmpoly")
    assert pred.direction == "none" and pred.abar.value == 0.0
    assert pred.time == pytest.approx(36.41, abs=0.01)


def test_bad_requests():
    rows = _model_rows()
    with pytest.raises(UserError, match="target size n"):
        predict_point(rows, "parmap", None, 4)
    with pytest.raises(UserError, match="needs T"):
        predict_point(rows, "parmap", 1000, 4, mode="known")
    with pytest.raises(UserError, match="cannot read condition"):
        parse_known("n<<3")
    assert parse_known("n<=100,p!=8")(from_rows([(100, 7, 1.0)]).rows[0])

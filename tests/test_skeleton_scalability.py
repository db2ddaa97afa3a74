"""Skeleton work terms, Karp-Flatt, Abar tables, and static farm imbalance."""

import csv
import io
import math
from importlib import resources

import pytest

from autotune.errors import UserError
from autotune.skeletons.scalability import (
    farm_imbalance,
    karp_flatt,
    penalty_table,
    reference_times,
)
from autotune.skeletons.skeleton import Skeleton, flat_dc_time, imbalance
from autotune.skeletons.tables import parse_table


def _text(name):
    return (resources.files("autotune") / "data" / name).read_text()


def _rows(name):
    lines = [ln for ln in _text(name).splitlines() if ln and not ln.startswith("#")]
    return list(csv.DictReader(io.StringIO("\n".join(lines))))


def test_work_terms_by_hand():
    seq = lambda n: n**2  # noqa: E731
    assert Skeleton("parmap").work(seq, 10, 4) == 25.0
    # farm of 8 tasks on 3 PEs: the busiest PE runs ceil(8/3) = 3 tasks of T(n)/8
    assert Skeleton("farm", tasks=8).work(seq, 10, 3) == pytest.approx(100 * 3 / 8)
    # 20 iterations on 6 PEs: rounds of 6-6-6-2 -> 4 rounds of s(n) = T(n)/20
    assert Skeleton("iteration", iterations=20).work(seq, 10, 6) == pytest.approx(4 * 100 / 20)
    # dc r=2, d=2 on 2 PEs: (4/2) T(n/4) + (T(n) - 4 T(n/4)) = 2*6.25 + (100 - 25) = 87.5
    assert Skeleton("dc", branching=2, depth=2).work(seq, 10, 2) == pytest.approx(87.5)


def test_flat_dc_time_sums_level_penalties():
    # r=3, d=2, p=9: penalties 1*A(n) + 3*A(n/3) with A(k, p) = k/100; leaves 9/9 T(n/9)
    t = flat_dc_time(lambda n: 2 * n, lambda k, p: k / 100, 90.0, 9, 3, 2, overhead=0.5)
    assert t == pytest.approx(0.9 + 3 * 0.3 + 1 * 20.0 + 0.5)


def test_skeleton_parameter_errors():
    with pytest.raises(UserError):
        Skeleton("pipeline")
    with pytest.raises(UserError, match="both"):
        Skeleton("dc", branching=2)


def test_rwpt_imbalance_is_n_mod_p_over_p():
    for row in _rows("lobachev_rwpt_table2.csv"):
        assert 100 * imbalance(294912, int(row["p"])) == pytest.approx(
            float(row["imbalance_percent"])
        )


def test_static_farm_model_lowers_the_penalty_where_p_does_not_divide_n():
    t = parse_table(_text("lobachev_rwpt_table2.csv"), "rwpt")
    rows = farm_imbalance(t, tasks=294912)
    assert rows[0].p == 16384 and rows[0].abar_balanced == 0
    for r in rows:
        if r.imbalance > 0:
            assert r.static > r.balanced and r.abar_static < r.abar_balanced
        else:
            assert r.static == pytest.approx(r.balanced)


def test_karp_flatt_reproduces_figure_7c():
    t = parse_table(_text("lobachev_rabin_miller_table4.csv"), "rm")
    t_n = t.time(9689.0, 1)
    for row in _rows("lobachev_rabin_miller_fig7c.csv"):
        p = int(row["p"])
        if p == 1:
            continue
        # f = (T(n,p)/T(n) - 1/p)/(1 - 1/p) with T(n,p) = T(n)/p + Abar
        f = karp_flatt(t_n / p + float(row["Abar"]), t_n, p)
        assert f == pytest.approx(float(row["serial_fraction"]), rel=1e-3)
    assert karp_flatt(t.time(9689.0, 7), t_n, 7) == pytest.approx(0.009379, rel=2e-3)
    assert karp_flatt(1.0, 1.0, 1) is None


def test_penalty_tables_by_p_and_by_n():
    t = parse_table(_text("lobachev_gauss_table1.csv"), "gauss")
    pt = penalty_table(t, Skeleton("farm"))
    assert pt.reference.kind == "relative"
    assert pt.abar[(100.0, 7)] == pytest.approx(3.6038 - 10.059 / 7)
    headers, rows = pt.by_p()
    assert headers[:4] == ["n", "Abar p=1", "Abar p=7", "Abar p=8"] and len(rows) == 9
    headers, rows = pt.by_n()
    assert headers[0] == "p" and [r[0] for r in rows] == [1, 7, 8]
    f_col = headers.index("f n=100")
    assert rows[1][f_col] == pytest.approx(karp_flatt(3.6038, 10.059, 7))


def test_scaled_reference_matches_the_printed_lbm_abar():
    t = parse_table(_text("lobachev_lbm_table2.csv"), "lbm")
    ref = reference_times(t)
    assert ref.kind == "scaled" and ref.p0 == 32768
    pt = penalty_table(t)
    for row in _rows("lobachev_lbm_table2.csv"):
        if row["Abar_printed"]:
            assert pt.abar[(0.0, int(row["p"]))] == pytest.approx(
                float(row["Abar_printed"]), abs=0.01
            )
    assert math.isclose(ref.times[0.0], 32768 * 16.285)

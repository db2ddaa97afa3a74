"""Loop forms, constant bounds, enclosing loops and symbolic bounds."""

from __future__ import annotations

import pytest
from analysis_support import analyze

FORMS = [
    ("for (i = 0; i < 100; i++)", range(0, 100)),
    ("for (i = 0; i <= 100; ++i)", range(0, 101)),
    ("for (i = 100; i > 0; i--)", range(100, 0, -1)),
    ("for (i = 100; i >= 0; --i)", range(100, -1, -1)),
    ("for (i = 3; i != 99; i += 4)", range(3, 99, 4)),
    ("for (i = 90; i != -6; i -= 3)", range(90, -6, -3)),
    ("for (i = 7; i < 100; i = i + 5)", range(7, 100, 5)),
    ("for (i = 7; i < 100; i = 5 + i)", range(7, 100, 5)),
    ("for (i = 99; i > 7; i = i - 5)", range(99, 7, -5)),
    ("for (int i = 0; 100 > i; i += 1)", range(0, 100)),
    ("for (i = 50; i < 10; i++)", range(50, 10)),
]


@pytest.mark.parametrize("header,expect", FORMS, ids=[f[0] for f in FORMS])
def test_loop_forms(header, expect):
    code = f"""double a[200];
    void f(void) {{ int i;
    #pragma omp parallel for
    {header} a[i + 50] = 1.0; }}"""
    r = analyze(code)
    assert r.trip_count == len(expect)
    assert r.iterations == len(expect)
    assert r.footprint_bytes == 8 * len(expect)
    assert r.nest[0].var == "i" and r.nest[0].trip_count == len(expect)


def test_constant_names_are_resolved():
    code = """enum { NB = 8 };
    static const int M = 40;
    int g = 12;
    typedef struct { double v[3]; } cell;
    void f(void) {
      const int lo = 2;
      int hi = M + g / 4;
      long n;
      int i, j;
      n = sizeof(cell) * NB;
    #pragma omp parallel for
      for (i = lo; i < hi; i++)
        for (j = 0; j < n; j += 2) ;
    }"""
    r = analyze(code)  # hi: never reassigned; n: assigned once
    assert r.trip_count == 43 - 2
    assert r.nest[1].trip_count == 24 * 8 // 2
    assert r.iterations == 41 * 96
    assert r.symbolic == []


def test_triangular_counts_exact_and_depends_on():
    code = """void f(void) { int i, j, k;
    #pragma omp parallel for
    for (i = 0; i < 60; i++)
      for (j = i / 2; j < 60 - i; j += 3)
        for (k = j; k <= i; k++) ; }"""
    expect = sum(len(range(j, i + 1)) for i in range(60) for j in range(i // 2, 60 - i, 3))
    r = analyze(code)
    assert r.iterations == expect
    assert r.nest[1].depends_on == ["i"] and r.nest[1].trip_count is None
    assert r.nest[2].depends_on == ["i", "j"]
    per_i = [sum(len(range(j, i + 1)) for j in range(i // 2, 60 - i, 3)) for i in range(60)]
    # no ops in the body: the work list is all zeros but has one entry per iteration
    assert len(r.work_per_iteration) == 60 and sum(per_i) == expect


def test_collapse_of_triangular_space_counts_points():
    code = """double a[40][40];
    void f(void) { int i, j;
    #pragma omp parallel for collapse(2)
    for (i = 0; i < 40; i++)
      for (j = i; j < 40; j++) a[i][j] = a[i][j] * 2.0; }"""
    r = analyze(code)
    assert r.trip_count == 40 * 41 // 2
    assert r.work_per_iteration == [1.0] * (40 * 41 // 2)


def test_enclosing_loops_count_executions_and_fix_their_variable():
    code = """double A[50][50];
    void f(void) { int t, s, k, i, j;
    for (t = 0; t < 4; t++)
      for (s = 0; s <= t; s++)
        for (k = 0; k < 49; k++) {
    #pragma omp parallel for
          for (i = k + 1; i < 50; i++)
            for (j = k + 1; j < 50; j++) A[i][j] -= A[i][k] * A[k][j];
        } }"""
    r = analyze(code)
    assert r.executions == (1 + 2 + 3 + 4) * 49
    assert [lv.var for lv in r.enclosing] == ["t", "s", "k"]
    assert r.enclosing[0].trip_count == 4 and r.enclosing[1].depends_on == ["t"]
    mid = 24  # middle of k = 0..48
    assert r.trip_count == 49 - mid
    assert r.iterations == (49 - mid) ** 2
    assert any("enclosing loop variable k" in w and "k = 24" in w for w in r.warnings)


def test_parameter_bound_is_symbolic_and_not_tunable():
    """No call in the file, or calls that disagree: the bound stays symbolic."""
    code = """void f(int n, double *a) { int i;
    #pragma omp parallel for
    for (i = 0; i < n; i++) a[i] = 0.0; }
    void g(double *b, int m) { f(10, b); f(20, b); }"""
    r = analyze(code)
    assert r.trip_count is None and r.iterations is None and r.footprint_bytes is None
    assert not r.tunable and "trip count" in r.reason and "n unknown" in r.reason
    assert r.symbolic and r.symbolic[0].startswith("i < n (n unknown")


def test_parameter_from_the_only_constant_passed():
    """PolyBench style: sizes reach the kernel as parameters from main."""
    code = """static void f(int n, double *a) { int i;
    #pragma omp parallel for
    for (i = 0; i < n; i++) a[i] = 0.0; }
    void g(void) { double b[10]; f(5 * 2, b); }"""
    r = analyze(code)
    assert r.trip_count == 10 and r.footprint_bytes == 80
    code = """static void f(int n, double a[n]) { int i;
    #pragma omp parallel for
    for (i = 0; i < n; i++) a[i] = 0.0; }
    int main(void) { int len = 12; double b[12]; f(len, b); return 0; }"""
    r = analyze(code)
    assert r.trip_count == 12 and r.tunable


def test_inner_symbolic_bound_keeps_outer_trip():
    code = """int m;
    void read(void);
    void f(double *a) { int i, j;
      read();
    #pragma omp parallel for
      for (i = 0; i < 30; i++)
        for (j = 0; j < m; j++) a[j] += 1.0; }
    void read(void) { m = 7; m = m + 1; }"""
    r = analyze(code)
    assert r.tunable and r.trip_count == 30
    assert r.iterations is None
    assert any("m" in s for s in r.symbolic) or any("counted as one trip" in w for w in r.warnings)


def test_csr_inner_loop_estimate():
    code = """int rowptr[101]; int col[1000]; double val[1000], x[100], y[100];
    void f(void) { int i, j;
    #pragma omp parallel for schedule(dynamic, 8)
    for (i = 0; i < 100; i++) {
      double s = 0.0;
      for (j = rowptr[i]; j < rowptr[i + 1]; j++) s += val[j] * x[col[j]];
      y[i] = s; } }"""
    r = analyze(code)
    assert r.tunable and r.trip_count == 100
    assert r.iterations is None  # data-dependent: not a count
    assert r.ops == {"add": 1000.0, "mul": 1000.0}  # 1000 nonzeros assumed in total
    assert r.ops_per_iteration.counts == {"add": 1.0, "mul": 1.0}
    assert any("data-dependent bounds" in w for w in r.warnings)
    # rowptr[i], rowptr[i + 1]: 101 ints; y exact; val, col, x whole arrays (upper bound)
    assert r.footprint_bytes == 101 * 4 + 100 * 8 + 1000 * 8 + 1000 * 4 + 100 * 8


TILES = [
    ("i < ii + 16 && i < 1000", lambda ii: range(ii, min(ii + 16, 1000))),
    ("i < 1000 && i < ii + 16", lambda ii: range(ii, min(ii + 16, 1000))),
    ("i <= ii + 15 && i < 1000", lambda ii: range(ii, min(ii + 16, 1000))),
    ("i < ii + 16 && i <= 996", lambda ii: range(ii, min(ii + 16, 997))),
    ("i < ii + 16 && 1000 > i", lambda ii: range(ii, min(ii + 16, 1000))),
]


@pytest.mark.parametrize("cond,inner", TILES, ids=[t[0] for t in TILES])
def test_a_second_bound_in_the_condition_ends_the_tile(cond, inner):
    """``i < ii + B && i < n`` runs to the lesser bound, as MIN(ii + B, n) would: the
    last tile is counted short, not to a full tile (brute force below)."""
    code = f"""double a[1000];
    void f(void) {{ int ii, i;
    #pragma omp parallel for private(i)
    for (ii = 0; ii < 1000; ii += 16)
      for (i = ii; {cond}; i++) a[i] = 2.0 * a[i]; }}"""
    r = analyze(code)
    expect = sum(len(inner(ii)) for ii in range(0, 1000, 16))
    assert r.iterations == expect
    assert not any("may exit early" in w for w in r.warnings)


def test_a_bound_of_the_other_direction_stays_a_data_exit():
    """``i > lo`` beside ``i < hi`` is no upper bound: counted to hi, and said."""
    code = """double a[100]; int lo;
    void f(void) { int i;
    #pragma omp parallel for
    for (i = 0; i < 100 && i > lo - 1000; i++) a[i] = 1.0; }"""
    r = analyze(code)
    assert r.iterations == 100
    assert any("may exit early" in w for w in r.warnings)


def test_two_lower_bounds_end_a_downward_tile():
    code = """double a[1000];
    void f(void) { int ii, i;
    #pragma omp parallel for private(i)
    for (ii = 999; ii >= 0; ii -= 16)
      for (i = ii; i > ii - 16 && i >= 3; i--) a[i] = 2.0 * a[i]; }"""
    r = analyze(code)
    expect = sum(len(range(ii, max(ii - 16, 2), -1)) for ii in range(999, -1, -16))
    assert r.iterations == expect


SEARCHES = """double cdf[4096], u[4096], xj[4096], x[4096];
    int first_at_least(double *c, int n, double v) {
      int k;
      for (k = 0; k < n; k++) if (c[k] >= v) break;
      return k < n ? k : n - 1; }
    int find_return(double *c, int n, double v) {
      for (int k = 0; k < n; k++) if (c[k] >= v) return k;
      return n - 1; }
    double total(double *c, int n) {
      double s = 0.0;
      for (int k = 0; k < n; k++) s += c[k];
      return s; }
    void resample(void) { int j;
    #pragma omp parallel for
      for (j = 0; j < 4096; j++) xj[j] = x[CALL];
    }"""


@pytest.mark.parametrize(
    "call, said",
    [
        ("first_at_least(cdf, 4096, u[j])", "line 4 in first_at_least()"),
        ("find_return(cdf, 4096, u[j])", "line 7 in find_return()"),
        ("(int)total(cdf, 4096) % 4096", None),  # its return ends it: not a search
    ],
)
def test_a_search_in_a_called_function_counts_its_trips_as_upper_bounds(call, said):
    """Rodinia particlefilter's resampling: each particle searches the CDF for its first
    entry at least u[j] and stops there; the search's trips, counted to its bound
    (4096 x 4096), are an upper bound, and the notes say where the loop may stop."""
    r = analyze(SEARCHES.replace("CALL", call))
    assert r.iterations == 4096 * 4096
    notes = [w for w in r.warnings if "trip counts are upper bounds" in w]
    assert notes == (
        [] if said is None else [f"break/return/goto at {said}: trip counts are upper bounds"]
    )

"""Bounds set just before a loop and clamped by an if (wavefronts, blocked loops).

The expected counts are computed in Python from the C semantics (truncating division,
the clamps run in order), independently of the analysis. Each refused case is one where
taking the last assignment as the value would give a wrong count.
"""

from __future__ import annotations

import json
from pathlib import Path

from analysis_support import analyze

from autotune.cli.main import main

DATA = Path(__file__).parent / "data" / "c" / "bounds"


def c_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


WAVEFRONT = """double A[%(n)d][%(n)d];
void sweep(int tsteps, int n) {
  int t, w, i, j, ilo, ihi;
  for (t = 0; t < tsteps; t++)
    for (w = 3; w <= 3 * (n - 2); w++) {
      ihi = (w - 1) / 2;
      if (ihi > n - 2) ihi = n - 2;
      ilo = (w - (n - 2) + 1) / 2;
      if (ilo < 1) ilo = 1;
#pragma omp parallel for private(j)
      for (i = ilo; i <= ihi; i++) {
        j = w - 2 * i;
        A[i][j] = (A[i-1][j] + A[i][j-1] + A[i][j] + A[i][j+1] + A[i+1][j]) / 5.0;
      }
    }
}
void run(void) { sweep(3, %(n)d); }
"""


def test_a_clamped_wavefront_bound_is_counted():
    n = 90
    r = analyze(WAVEFRONT % {"n": n})
    ws = range(3, 3 * (n - 2) + 1)
    mid = ws[(len(ws) - 1) // 2]
    ihi = min(c_div(mid - 1, 2), n - 2)
    ilo = max(c_div(mid - (n - 2) + 1, 2), 1)
    assert r.tunable, r.reason
    assert r.trip_count == ihi - ilo + 1
    assert r.executions == 3 * len(ws)
    assert any(f"w = {mid}" in w for w in r.warnings)
    # j = w - 2*i, set in the body before the read: each point is one element
    assert r.footprint_bytes is not None
    assert not any("counted as the whole array" in w for w in r.warnings)


def test_an_if_else_that_sets_the_bound_either_way_is_its_value():
    code = """double a[100];
    void f(int m) { int i, hi;
      if (m > 60) hi = 60; else hi = m;
    #pragma omp parallel for
      for (i = 0; i < hi; i++) a[i] = 1.0; }
    void g(void) { f(75); }"""
    r = analyze(code)
    assert r.trip_count == 60 and r.tunable
    for arg, trips in (("3", 50), ("-1", 20)):  # set on one path, its start on the other
        code = f"""double a[100];
        void f(int k) {{ int i, hi = 20;
          if (k > 0) hi = 50;
        #pragma omp parallel for
          for (i = 0; i < hi; i++) a[i] = 1.0; }}
        void g(void) {{ f({arg}); }}"""
        assert analyze(code).trip_count == trips
    code = """double a[100];
    void f(void) { int i, hi;
      hi = 50;
      { int hi = 20;
    #pragma omp parallel for
        for (i = 0; i < hi; i++) a[i] = 1.0; } }"""
    assert analyze(code).trip_count == 20  # the inner hi, not the outer one
    code = """double a[100];
    void f(void) { int i, hi = 100;
      hi = hi / 3.0;
    #pragma omp parallel for
      for (i = 0; i < hi; i++) a[i] = 1.0; }"""
    assert analyze(code).trip_count == 33  # an int holds 33, not 33.3 (which runs 34)


def test_a_blocked_loop_counts_its_short_last_block():
    code = """double a[100][100], s[100];
    void f(void) { int ib;
    #pragma omp parallel for
      for (ib = 0; ib < 100; ib += 32) {
        int i, j, iend;
        iend = ib + 32;
        if (iend > 100) iend = 100;
        for (i = ib; i < iend; i++)
          for (j = 0; j < 100; j++) s[i] += a[i][j];
      } }"""
    r = analyze(code)
    assert r.trip_count == 4
    assert r.iterations == 100 * 100  # 32 + 32 + 32 + 4 rows
    assert r.footprint_bytes == 8 * (100 * 100 + 100)
    assert list(r.work_per_iteration or []) != [] and len(set(r.work_per_iteration)) == 2


REFUSED = {
    # the loop around the read moves the bound between its runs: not 10 every time
    "moved by the loop around": """double a[200];
    void f(void) { int t, i, hi;
      hi = 10;
      for (t = 0; t < 5; t++) {
    #pragma omp parallel for
        for (i = 0; i < hi; i++) a[i] += 1.0;
        hi += 20;
      } }""",
    # volatile: something outside the program's flow may change it
    "volatile": """double a[200];
    void f(void) { int i; volatile int hi;
      hi = 150;
      if (hi > 120) hi = 120;
    #pragma omp parallel for
      for (i = 0; i < hi; i++) a[i] = 1.0; }""",
    # a goto reaches the loop past the assignment: 10 on that path, 50 on the other
    "goto": """double a[200];
    void f(int k) { int i, hi = 10;
      if (k) goto run;
      hi = 50;
    run:
      k = 0;
    #pragma omp parallel for
      for (i = 0; i < hi; i++) a[i] = 1.0; }""",
    # unsigned char wraps: 200 + 100 is 44, not 300
    "narrow and unsigned": """double a[400];
    void f(void) { int i; unsigned char hi = 200;
      hi += 100;
    #pragma omp parallel for
      for (i = 0; i < hi; i++) a[i] = 1.0; }""",
    # a function may change it through the pointer
    "address taken": """double a[200];
    void shrink(int *p);
    void f(void) { int i, hi;
      hi = 150;
      shrink(&hi);
    #pragma omp parallel for
      for (i = 0; i < hi; i++) a[i] = 1.0; }""",
    # the value read m before m doubled: the bound is the old m, not m
    "its input changes": """double a[200];
    void f(void) { int i, hi, m;
      m = 40;
      hi = m;
      m = 2 * m;
      if (hi > m) hi = m;
    #pragma omp parallel for
      for (i = 0; i < hi; i++) a[i] = 1.0; }""",
}


def test_values_that_may_differ_at_the_loop_stay_unknown():
    for why, code in REFUSED.items():
        r = analyze(code)
        assert r.trip_count is None, why
        assert not r.tunable and "trip count" in r.reason, why


def test_the_wavefront_program_is_proven_and_its_variants_print_its_result(capsys):
    """End to end: a skewed Gauss-Seidel (bounds clamped before the loop) and a blocked
    pass, as written; both loops are counted and proven, and every measured variant
    prints what the original prints."""
    name = DATA / "wavefront_clamped.c"
    assert main(["analyze", str(name), "--json"]) == 0
    loops = {lp["line"]: lp for lp in json.loads(capsys.readouterr().out)["loops"]}
    assert loops[27]["tunable"] and loops[27]["trip_count"] == 59
    assert loops[40]["tunable"] and loops[40]["iterations"] == 120 * 120
    # a generous floor: 3 threads on 2 loaded cores may run far slower than the original
    # (a timeout is the machine's load, not the variant's result)
    options = "--schedules static,dynamic --chunks=-,1 --threads 1,3 --repetitions 1"
    options += " --timeout-floor 300"
    rc = main(["measure", str(name), *options.split(), "--json"])
    assert rc == 0
    measured = json.loads(capsys.readouterr().out)["loops"]
    assert len(measured) == 2
    for loop in measured:
        assert len(loop["variants"]) >= 6
        assert {v["status"] for v in loop["variants"]} == {"ok"}


def _chain(rng) -> list[str]:
    """A random straight-line history of the locals a, b and x, as C statements."""
    c = lambda: rng.randint(0, 40)  # noqa: E731
    forms = [
        lambda: f"x = {c()};",
        lambda: f"x = a + {c()};",
        lambda: f"x = (a - {c()}) / 3;",
        lambda: f"x = b * 2 - {c()};",
        lambda: f"if (x > {c()}) x = {c()};",
        lambda: f"if (x < {c()}) x = a;",
        lambda: f"if (a > {c()}) x = {c()}; else x = b + 1;",
        lambda: f"x += {c()};",
        lambda: "x -= b;",
        lambda: "x *= 2;",
        lambda: f"a = a + {c()};",
        lambda: "b = x % 7;",
        lambda: "{ int x = 3; b += x; }",
        lambda: "for (t = 0; t < 3; t++) a += t;",
        lambda: f"if (b > {c()}) {{ a = 1; }}",
    ]
    return [rng.choice(forms)() for _ in range(rng.randint(1, 7))]


def test_the_values_agree_with_the_compiled_program(tmp_path):
    """Random histories of a few locals before a loop bounded by one of them: wherever
    the analysis gives a trip count it is the count the compiled program runs (gcc is the
    oracle), and most of them are given."""
    import random
    import subprocess

    from autotune.analysis import analyze_file

    rng = random.Random(20261128)
    funcs, calls = [], []
    for k in range(80):
        body = "\n    ".join(_chain(rng))
        funcs.append(
            f"""static void f{k}(void)
{{
    int t, i, a = {rng.randint(0, 30)}, b = {rng.randint(0, 30)}, x = {rng.randint(0, 30)};
    {body}
    printf("{k} %d\\n", x);
#pragma omp parallel for
    for (i = 0; i < x; i++)
        out[i] = i + a + b;
}}"""
        )
        calls.append(f"    f{k}();")
    src = tmp_path / "chains.c"
    src.write_text(
        "#include <stdio.h>\nstatic int out[100000];\n"
        + "\n".join(funcs)
        + "\nint main(void)\n{\n"
        + "\n".join(calls)
        + "\n    return 0;\n}\n"
    )
    exe = tmp_path / "chains"
    subprocess.run(["gcc", "-O0", "-fopenmp", str(src), "-o", str(exe)], check=True)
    ran = dict(
        tuple(int(v) for v in line.split())
        for line in subprocess.run([str(exe)], capture_output=True, text=True).stdout.split("\n")
        if line
    )
    loops = {r.function: r for r in analyze_file(str(src), threads=2).loops}
    known = 0
    for k in range(80):
        trips = loops[f"f{k}"].trip_count
        if trips is not None:
            known += 1
            assert trips == max(ran[k], 0), f"f{k}"
    assert known >= 40


def test_a_trip_count_that_differs_between_runs_claims_no_equivalence_it_rests_on():
    """LU's row loop ``j = i .. n`` runs 400 iterations at i = 0 and 201 at the middle
    row the analysis counts. At 201, chunks of 256 and 512 are both one chunk; at 400
    they are two chunks and one: not the same run, so they are measured apart. Rules
    that need no trip count (``dynamic`` without a chunk is ``dynamic,1``) still hold."""
    from autotune.variants.equivalence import collapse
    from autotune.variants.space import Variant

    code = """double a[400][400];
    void f(void) { int i, j, k;
      for (i = 0; i < 400; i++) {
    #pragma omp parallel for private(k)
        for (j = i; j < 400; j++)
          for (k = 0; k < i; k++) a[i][j] -= a[i][k] * a[k][j];
      } }"""
    r = analyze(code)
    assert r.trip_count == 201 and r.trip_varies
    pair = [Variant("dynamic", 256, 2), Variant("dynamic", 512, 2)]
    keep, same = collapse(r, pair, "libgomp")
    assert keep == pair and same == []
    keep, same = collapse(r, [Variant("dynamic", None, 2), Variant("dynamic", 1, 2)], "libgomp")
    assert len(keep) == 1 and len(same) == 1
    fixed = analyze(code.replace("j = i;", "j = 0;"))
    assert not fixed.trip_varies
    whole = [Variant("dynamic", 512, 2), Variant("dynamic", 1024, 2)]
    assert len(collapse(fixed, whole, "libgomp")[0]) == 1  # one chunk of 400 every time

"""Weighted operation counts on hand-counted bodies, and the weight table."""

from __future__ import annotations

import json
import re
import subprocess

import pytest
from analysis_support import analyze

from autotune.analysis.ops import DEFAULT_WEIGHTS, POW_FOLDED, WeightTable, math_name


def one_loop(body: str, decls: str = "", n: int = 10) -> str:
    return f"""double a[100], b[100], c[100], d[100]; int idx[100]; {decls}
    double sqrt(double); double exp(double); float fabsf(float); double pow(double, double);
    void f(double s, double t) {{ int i, j, k; double x = 0.0, y = 1.0;
    #pragma omp parallel for
    for (i = 0; i < {n}; i++) {{ {body} }} }}"""


HAND = [
    (
        "a[i] = b[i] * c[i] + d[i] / s - sqrt(b[i]);",
        {"mul": 1, "add": 1, "div": 1, "sub": 1, "sqrt": 1},
    ),
    ("a[2 * i + 1] += b[i + 3 * 2];", {"add": 1}),  # subscripts are not work
    ("a[idx[i] + 1] = -b[i] * 2.0;", {"neg": 1, "mul": 1}),
    ("x *= 2.0; x -= b[i]; y /= x; k = i % 3;", {"mul": 1, "sub": 1, "div": 1, "mod": 1}),
    (
        "a[i] = (b[i] > 0.0 && c[i] < 1.0) ? exp(b[i]) : pow(c[i], 1.5);",
        {"cmp": 2, "logic": 1, "exp": 0.5, "pow": 0.5},
    ),
    # pow with an exponent gcc folds exactly (-O1 and above) is what it becomes
    ("a[i] = pow(b[i] - 100, 2) - pow(b[i] - 228, 2.0);", {"sub": 3, "mul": 2}),
    ("a[i] = pow(b[i], -1.0) + pow(c[i], 1) * pow(d[i], 0.);", {"div": 1, "add": 1, "mul": 1}),
    ("a[i] = pow(b[i], 3.0) + pow(c[i], s);", {"pow": 2, "add": 1}),
    (
        "if (b[i] < s) { a[i] = b[i] + 1.0; } else { a[i] = b[i] * b[i] * b[i]; }",
        {"cmp": 1, "add": 0.5, "mul": 1.0},
    ),
    ("if (b[i] != 0.0) a[i] = 1.0 / b[i];", {"cmp": 1, "div": 0.5}),
    ("a[i] = fabsf(b[i]) + (double) (i * 3);", {"fabs": 1, "add": 1, "mul": 1}),
    ("for (j = 0; j < 4; j++) a[i] += b[j] * c[j];", {"add": 4, "mul": 4}),
    ("x++; --y; a[i] = x + y;", {"add": 3}),
]


@pytest.mark.parametrize("body,per_iter", HAND, ids=[h[0] for h in HAND])
def test_hand_counted_bodies(body, per_iter):
    r = analyze(one_loop(body))
    assert r.ops == pytest.approx({k: 10 * v for k, v in per_iter.items()})
    expect_w = sum(10 * v * DEFAULT_WEIGHTS.weight(k) for k, v in per_iter.items())
    assert r.weighted_ops == pytest.approx(expect_w)
    inner = 4 if "for (j" in body else 1
    assert r.ops_per_iteration.weighted == pytest.approx(expect_w / (10 * inner))
    assert r.work_per_iteration == pytest.approx([expect_w / 10] * 10)


def test_division_and_sqrt_cost_more_than_add():
    w = DEFAULT_WEIGHTS
    assert w.weight("div") > w.weight("mul") >= w.weight("add")
    assert w.weight("sqrt") > w.weight("add") and w.weight("sqrtf") == w.weight("sqrt")
    assert w.weight("no_such_call") == w.call
    assert math_name("sqrtf") == "sqrt" and math_name("erf") == "erf" and math_name("foo") is None
    assert math_name("expf") == "expf" and w.weight("expf") < w.weight("exp")  # timed apart


def test_weight_table_json_round_trip_and_use(tmp_path):
    table = WeightTable.from_json(
        json.dumps({"weights": {"div": 2.0, "mul": 3.0}, "source": "calibrated here"})
    )
    assert table.weight("div") == 2.0 and table.weight("add") == 1.0
    path = tmp_path / "w.json"
    table.save(path)
    again = WeightTable.load(path)
    assert again == table and again.source == "calibrated here"
    from analysis_support import find_loops
    from pycparser import c_parser

    from autotune.analysis.loop import analyze_loop
    from autotune.frontend.records import Directive, LoopRecord

    ast = c_parser.CParser().parse(one_loop("a[i] = b[i] * c[i] / d[i];"))
    fnode, enc, func, text = find_loops(ast)[0]
    d = Directive(text, "parallel for", "t.c", 1)
    rec = LoopRecord("t.c:1", "t.c", 1, "f", d, d)
    analyze_loop(rec, fnode, enc, func, ast, 2, weights=again)
    assert rec.weighted_ops == 10 * (3.0 + 2.0)
    with pytest.raises(ValueError):
        WeightTable.from_json("[1, 2]")


def test_triangular_work_per_iteration_grows():
    code = """double a[50][50], s[50];
    void f(void) { int i, j;
    #pragma omp parallel for
    for (i = 0; i < 50; i++) for (j = 0; j < i; j++) s[i] += a[i][j] / 3.0; }"""
    r = analyze(code)
    w = DEFAULT_WEIGHTS.weight("add") + DEFAULT_WEIGHTS.weight("div")
    assert r.work_per_iteration == pytest.approx([w * i for i in range(50)])
    assert r.weighted_ops == pytest.approx(w * 50 * 49 / 2)


def test_while_loop_bounded_by_counter():
    code = """int out[64];
    void f(void) { int p;
    #pragma omp parallel for schedule(dynamic)
    for (p = 0; p < 64; p++) {
      double x = 0.0, y = 0.0, c = p * 0.01; int k = 0;
      while (x * x + y * y < 4.0 && k < 300) { double t = x * x - y * y + c; y = 2.0 * x * y;
                                               x = t; k++; }
      out[p] = k; } }"""
    r = analyze(code)
    # per trip: cond 2 mul + 1 add + 2 cmp + 1 logic; body 4 mul + 1 sub + 1 add + k++
    per_trip = {"mul": 6, "add": 3, "sub": 1, "cmp": 2, "logic": 1}
    expect = {k: 300 * 64 * v for k, v in per_trip.items()}
    expect["mul"] += 64  # c = p * 0.01
    assert r.ops == pytest.approx(expect)
    assert any("at most 300 trips" in w for w in r.warnings)


def test_unbounded_while_counts_once_and_warns():
    code = """double a[20];
    void f(void) { int i;
    #pragma omp parallel for
    for (i = 0; i < 20; i++) { double x = a[i]; while (x > 1.0) x = x / 2.0; a[i] = x; } }"""
    r = analyze(code)
    assert r.ops == {"cmp": 20.0, "div": 20.0}
    assert any("data-dependent condition: counted once" in w for w in r.warnings)


def test_user_function_is_inlined_and_external_call_warned():
    code = """double a[40], b[40];
    double ext(double);
    static double poly(double x, int deg) {
      double r = 0.0; int q;
      for (q = 0; q <= deg; q++) r = r * x + 1.0;
      return r; }
    static double twice(double x) { return poly(x, 3) * 2.0; }
    void f(void) { int i;
    #pragma omp parallel for
    for (i = 0; i < 40; i++) b[i] = twice(a[i]) + poly(a[i], i) + ext(a[i]); }"""
    r = analyze(code)
    # twice(): poly(x, 3) is 4 trips of (mul + add), then * 2.0 -> 5 mul, 4 add
    tri = sum(i + 1 for i in range(40))  # poly(a[i], i): i + 1 trips
    assert r.ops["mul"] == pytest.approx(40 * 5 + tri)
    assert r.ops["add"] == pytest.approx(40 * 4 + tri + 40 * 2)
    assert r.ops["call"] == 40
    assert any("ext()" in w for w in r.warnings)


def test_recursive_function_not_inlined():
    code = """double a[10];
    static double fact(double x) { return x <= 1.0 ? 1.0 : x * fact(x - 1.0); }
    void f(void) { int i;
    #pragma omp parallel for
    for (i = 0; i < 10; i++) a[i] = fact(a[i]); }"""
    r = analyze(code)
    assert r.tunable and r.ops.get("call", 0) > 0
    assert any("recursive" in w for w in r.warnings)


def test_the_pow_exponents_counted_as_arithmetic_are_those_gcc_folds(tmp_path):
    """The analysis counts pow(x, c) as what gcc -O2 makes of it for the exponents in
    POW_FOLDED and as a library call otherwise: the compiler's own output agrees."""
    exponents = [*POW_FOLDED, 3.0, 0.5, -2.0]
    src = tmp_path / "pows.c"
    src.write_text(
        "double pow(double, double);\n"
        + "".join(
            f"double p{k}(double x) {{ return pow(x, {e!r}); }}\n" for k, e in enumerate(exponents)
        )
    )
    asm = subprocess.run(
        ["gcc", "-O2", "-S", "-o", "-", str(src)], capture_output=True, text=True, check=True
    ).stdout
    bodies = re.split(r"^p(\d+):$", asm, flags=re.MULTILINE)[1:]
    calls = {
        exponents[int(k)]: "pow" in body for k, body in zip(bodies[::2], bodies[1::2], strict=True)
    }
    assert calls == {e: e not in POW_FOLDED for e in exponents}

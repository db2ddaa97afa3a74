"""Trip counts as barvinok formulas in the sizes a program reads at run time, shown by
``analyze --json`` and checked against brute-force counting and profile runs."""

from __future__ import annotations

import json

import pytest

from autotune.analysis.formulas import count_formula, evaluate, nest_formulas
from autotune.cli.main import main
from autotune.frontend.records import LoopLevel

# a triangular update sized from the command line (PolyBench syrk's shape)
TRIANGULAR = r"""#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100;
    double *a = calloc((size_t)n * n, sizeof(double));
#pragma omp parallel for schedule(dynamic)
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++)
            a[(long)i * n + j] = i + j;
    double s = 0;
    for (long k = 0; k < (long)n * n; k++)
        s += a[k];
    printf("%.1f\n", s);
    return 0;
}
"""


def brute_triangle(n: int) -> int:
    """Count (i, j) of ``for i in [0, n): for j in [0, i]`` by enumeration."""
    return sum(1 for i in range(0, n) for _j in range(0, i + 1))


def test_a_triangular_nest_gets_its_formula_and_profile_runs_agree(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path / "cache"))
    src = tmp_path / "syrk_like.c"
    src.write_text(TRIANGULAR)
    assert main(["analyze", str(src), "--json"]) == 0
    (loop,) = json.loads(capsys.readouterr().out)["loops"]
    formulas = loop["formulas"]
    assert formulas["iterations"] == "[n] -> { (1/2 * n + 1/2 * n^2) : n > 0 }"
    assert loop["iterations"] is None  # the source alone cannot count it
    for n in (37, 64):  # a profile run measures n; the formula and the count agree
        assert main(["analyze", str(src), "--args", str(n), "--json"]) == 0
        (measured,) = json.loads(capsys.readouterr().out)["loops"]
        assert measured["iterations"] == evaluate(formulas["iterations"], {"n": n})
        assert measured["iterations"] == brute_triangle(n)
        assert measured["trip_count"] == evaluate(formulas["trip_count"], {"n": n}) == n


@pytest.mark.parametrize(
    "levels,sizes",
    [
        # strided, offset: for (i = 1; i < nx - 1; i += 2)
        ([LoopLevel("i", "1", "g->nx - 1", "<", 2, None, [], 1)], {"g_nx": [3, 10, 11]}),
        # a band: for (i = 0; i <= m; i++) for (j = i; j < i + w; j++)
        (
            [
                LoopLevel("i", "0", "m", "<=", 1, None, [], 1),
                LoopLevel("j", "i", "i + w", "<", 1, None, [], 2),
            ],
            {"m": [0, 5, 9], "w": [1, 4]},
        ),
        # counting down: for (k = n - 1; k >= 0; k -= 3)
        ([LoopLevel("k", "n - 1", "0", ">=", -3, None, [], 1)], {"n": [1, 7, 12]}),
    ],
)
def test_formulas_match_enumeration(levels, sizes):
    import itertools

    formula = count_formula(levels)
    assert formula is not None
    names = list(sizes)
    for combo in itertools.product(*(sizes[k] for k in names)):
        env = dict(zip(names, combo, strict=True))
        assert evaluate(formula, env) == _enumerate(levels, env), (formula, env)


def _enumerate(levels: list[LoopLevel], env: dict[str, int]) -> int:
    """Run the nest in Python with ``env`` for the sizes (the C texts are affine)."""

    def value(text: str, scope: dict[str, int]) -> int:
        return int(eval(text.replace("g->nx", "g_nx"), {}, scope))  # the test's own texts

    def run(depth: int, scope: dict[str, int]) -> int:
        if depth == len(levels):
            return 1
        lv = levels[depth]
        v, total = value(lv.lower, scope), 0
        hi = value(lv.upper, scope)
        ok = {"<": lambda x: x < hi, "<=": lambda x: x <= hi, ">=": lambda x: x >= hi}
        while ok[lv.op](v):
            total += run(depth + 1, {**scope, lv.var: v})
            v += lv.step
        return total

    return run(0, dict(env))


def test_no_formula_for_what_is_not_affine_or_already_fixed():
    product = [LoopLevel("i", "0", "rows * cols", "<", 1, None, [], 1)]
    assert nest_formulas(product, 1) == {}  # a product of two sizes: not a polyhedron
    fixed = [LoopLevel("i", "0", "1000", "<", 1, None, [], 1)]
    assert nest_formulas(fixed, 1) == {}  # constants: the counts say it all

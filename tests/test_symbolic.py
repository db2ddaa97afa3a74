"""Footprints as formulas in the program's sizes (``analysis.symbolic``), as a user sees
them in ``analyze --json``, checked against brute-force enumeration of what each loop
touches, in total and per thread of a static schedule."""

from __future__ import annotations

import json

from analysis_support import static_blocks

from autotune.analysis.formulas import evaluate
from autotune.cli.main import main

# PolyBench syrk's shape: a kernel sized by its parameters n and m, arrays by macros
SYRK = r"""#include <stdio.h>
#ifndef N
#define N 30
#endif
#ifndef M
#define M 20
#endif
static double C[N][N], A[N][M];

static void kernel_syrk(int n, int m, double alpha, double beta, double C[N][N],
                        double A[N][M])
{
    int i, j, k;
#pragma omp parallel for private(j, k)
    for (i = 0; i < n; i++) {
        for (j = 0; j <= i; j++)
            C[i][j] *= beta;
        for (k = 0; k < m; k++)
            for (j = 0; j <= i; j++)
                C[i][j] += alpha * A[i][k] * A[j][k];
    }
}

int main(void)
{
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < M; j++)
            A[i][j] = (double)((i * j + 1) % N) / N;
        for (int j = 0; j < N; j++)
            C[i][j] = (double)((i * j + 2) % M) / M;
    }
    kernel_syrk(N, M, 1.5, 1.2, C, A);
    double s = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            s += C[i][j];
    printf("%.6f\n", s);
    return 0;
}
"""

# a strided stencil sized from the command line (Rodinia style)
STRIDED = r"""#include <stdio.h>
#include <stdlib.h>
#define NMAX 4096
static double a[NMAX], b[NMAX];
int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100;
    if (n > NMAX)
        n = NMAX;
    for (int i = 0; i < n; i++)
        a[i] = i * 0.5;
#pragma omp parallel for
    for (int i = 1; i < n - 1; i += 2)
        b[i] = a[i - 1] + a[i + 1];
    printf("%.1f\n", b[1] + b[n / 2]);
    return 0;
}
"""


def syrk_touched(n: int, m: int, rows) -> dict[str, set]:
    """Elements of C and A that iterations ``rows`` of the i loop touch."""
    c, a = set(), set()
    for i in rows:
        for j in range(i + 1):
            c.add((i, j))
        for k in range(m):
            for j in range(i + 1):
                c.add((i, j))
                a.update({(i, k), (j, k)})
    return {"C": c, "A": a}


def analyze(src, capsys, *extra: str) -> dict:
    assert main(["analyze", str(src), "--json", *extra]) == 0
    (loop,) = json.loads(capsys.readouterr().out)["loops"]
    return loop


def test_syrk_footprints_are_formulas_that_enumeration_confirms(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path / "cache"))
    src = tmp_path / "syrk.c"
    src.write_text(SYRK)
    texts = set()
    for n, m in ((30, 20), (17, 11)):
        loop = analyze(
            src, capsys, "-D", f"N={n}", "-D", f"M={m}", "--threads", "4", "--thread-formulas"
        )
        f = loop["formulas"]
        sizes = {"n": n, "m": m}
        assert f["sizes"] == sizes  # learnt from the kernel's call, not guessed
        touched = syrk_touched(n, m, range(n))
        for name, elements in touched.items():
            assert evaluate(f["footprint_elements"][name], sizes) == len(elements)
        total = 8 * sum(len(e) for e in touched.values())
        assert evaluate(f["footprint_bytes"], sizes) == total == loop["footprint_bytes"]
        blocks = static_blocks(n, 4)
        per = f["footprint_bytes_per_thread"]
        assert per["schedule"] == "static" and per["threads"] == 4
        for which, rows in (("first", blocks[0]), ("last", blocks[-1])):
            want = 8 * sum(len(e) for e in syrk_touched(n, m, rows).values())
            assert evaluate(per[which], sizes) == want, (which, n, m)
        assert evaluate(f["iterations"], sizes) == loop["iterations"] == m * n * (n + 1) // 2
        # the two bodies (C *= beta; C += ...) weighted, counted by their own nests
        assert evaluate(f["weighted_ops"], sizes) == loop["weighted_ops"]
        texts.add(f["footprint_bytes"])
    assert len(texts) == 1  # one formula in n and m, whatever size the build fixed


def test_a_size_read_at_run_time_gets_formulas_before_any_run(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("AUTOTUNE_DB", str(tmp_path / "results.db"))
    src = tmp_path / "strided.c"
    src.write_text(STRIDED)
    loop = analyze(src, capsys, "--threads", "3", "--thread-formulas")
    assert loop["footprint_bytes"] is None  # the source alone cannot count it
    f = loop["formulas"]
    for n in (10, 37, 100):
        iters = range(1, n - 1, 2)
        elements = {"a": {i - 1 for i in iters} | {i + 1 for i in iters}, "b": set(iters)}
        assert evaluate(f["footprint_bytes"], {"n": n}) == 8 * sum(map(len, elements.values()))
        first = static_blocks(len(iters), 3)[0]
        rows = [iters[k] for k in first]
        mine = {i - 1 for i in rows} | {i + 1 for i in rows} | set(rows)
        assert evaluate(f["footprint_bytes_per_thread"]["first"], {"n": n}) == 8 * len(mine)
    profiled = analyze(src, capsys, "--threads", "3", "--args", "37")
    assert profiled["footprint_bytes"] == evaluate(f["footprint_bytes"], {"n": 37})
    assert profiled["weighted_ops"] == evaluate(f["weighted_ops"], {"n": 37}) > 0
    assert profiled["formulas"]["sizes"] == {"n": 37}


def test_a_local_computed_in_the_nest_is_not_taken_for_a_size(tmp_path, monkeypatch, capsys):
    """``w = i + 1`` bounds the inner loop (``w`` private, declared outside): a formula in
    a 'size' w would be wrong."""
    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path / "cache"))
    src = tmp_path / "local.c"
    src.write_text(
        "#include <stdio.h>\n#include <stdlib.h>\nstatic double a[64][64];\n"
        "int main(int argc, char **argv)\n{\n    int n = argc > 1 ? atoi(argv[1]) : 64, w;\n"
        "#pragma omp parallel for private(w)\n    for (int i = 0; i < n; i++) {\n"
        "        w = i + 1;\n        for (int j = 0; j < w; j++)\n"
        "            a[i][j] = i + j;\n    }\n"
        '    printf("%.1f\\n", a[n - 1][0]);\n    return 0;\n}\n'
    )
    f = analyze(src, capsys)["formulas"]
    assert "footprint_bytes" not in f
    assert all("w" not in text for text in f.values() if isinstance(text, str))


def test_npb_sizes_held_in_an_array_are_sizes_too(tmp_path, monkeypatch, capsys):
    """NPB bounds its loops by ``grid_points[1] - 1``: an element at a constant subscript
    stands for a size (``grid_points_1``), and a profile run's values evaluate it."""
    from pathlib import Path

    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("AUTOTUNE_DB", str(tmp_path / "results.db"))
    src = Path(__file__).parent / "data" / "c" / "proof" / "bt_runtime_grid.c"
    assert main(["analyze", str(src), "--json"]) == 0
    loops = {lp["line"]: lp for lp in json.loads(capsys.readouterr().out)["loops"]}
    f = loops[16]["formulas"]
    assert f["trip_count"] == "[grid_points_1] -> { (-2 + grid_points_1) : grid_points_1 >= 3 }"
    assert main(["analyze", str(src), "--json", "--args", "12"]) == 0
    (profiled,) = [lp for lp in json.loads(capsys.readouterr().out)["loops"] if lp["line"] == 16]
    sizes = {"grid_points_1": 12, "grid_points_2": 12, "i": 1}
    assert profiled["trip_count"] == evaluate(f["trip_count"], sizes) == 10
    # rhs[i][j][k] and u[i][j][k], u[i+1][j][k] over 10 x 10 (j, k), and the int
    # grid_points[2] the inner bound reads; the plane is i = 1, set before the loop
    # (analysis/reaching.py), so the profiled analysis counts the same
    assert evaluate(f["footprint_bytes"], sizes) == 8 * 3 * 10 * 10 + 4
    assert profiled["footprint_bytes"] == 8 * 3 * 10 * 10 + 4

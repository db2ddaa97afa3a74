"""The structure commands driven as a user would: autotune compose,
autotune isoefficiency, autotune hdc (in-process through main)."""

import json
import math

import numpy as np
import pytest

from autotune.cli.main import main


def run_json(capsys, argv):
    rc = main(argv)
    out = capsys.readouterr().out
    assert rc == 0, out
    return json.loads(out)


# ------------------------------------------------------------------ compose
def test_compose_moment_vectors_json(capsys):
    out = run_json(capsys, ["compose", "--m1", "0,1,0,3", "--m2", "0,1,0,3", "--json"])
    lam = out["tasks"][0]["lambda_fit"]
    assert lam["l3"] == pytest.approx(0.1349, abs=5e-4) and lam["exact"]
    moments = out["moments_of_max"]
    assert moments["exact"]["E[Y]"] == pytest.approx(1 / math.sqrt(math.pi), rel=5e-3)
    assert moments["lambda"]["E[Y]"] == pytest.approx(0.0, abs=1e-9)  # identical tasks
    assert moments["deterministic"]["E[Y]"] == 0.0
    assert moments["heuristic"]["E[Y^2]"] == pytest.approx(1.0)


def test_compose_sample_files_table_and_plot(tmp_path, capsys):
    rng = np.random.default_rng(5)
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    xa, xb = rng.normal(10, 1, 3000), rng.normal(10.5, 2, 3000)
    a.write_text("# section 1 times\n" + "\n".join(map(str, xa)) + "\n")
    b.write_text("\n".join(map(str, xb)) + "\n\n")
    png = tmp_path / "c.png"
    rc = main(["compose", str(a), str(b), "--plot", str(png)])
    out = capsys.readouterr().out
    assert rc == 0
    assert "lambda fits" in out and "empirical" in out and "exact" in out
    assert png.stat().st_size > 1000
    # The empirical mean over all pairs and the exact integral agree closely.
    js = run_json(capsys, ["compose", str(a), str(b), "--json"])
    emp = js["moments_of_max"]["empirical"]["E[Y]"]
    assert js["moments_of_max"]["exact"]["E[Y]"] == pytest.approx(emp, rel=0.01)
    assert emp == pytest.approx(np.mean(np.maximum.outer(xa[:500], xb[:500])), rel=0.02)


def test_compose_file_plus_moments_and_orders(tmp_path, capsys):
    a = tmp_path / "a.txt"
    a.write_text("\n".join(str(v) for v in np.random.default_rng(1).exponential(1, 500)))
    out = run_json(capsys, ["compose", str(a), "--m2", "5,1,0,3", "--orders", "1,2,3", "--json"])
    assert out["orders"] == [1, 2, 3]
    assert out["tasks"][0]["source"] == str(a) and out["tasks"][1]["source"] == "--m2"
    assert set(out["moments_of_max"]["lambda"]) == {"E[Y]", "E[Y^2]", "E[Y^3]"}


@pytest.mark.parametrize(
    "argv, message",
    [
        (["compose", "--m1", "1,1,0,3"], "give two tasks"),
        (["compose", "--m1", "1,1,0", "--m2", "1,1,0,3"], "expected 4 numbers"),
        (["compose", "--m1", "1,1,3,3", "--m2", "1,1,0,3"], "kurtosis"),
        (["compose", "--m1", "1,1,0,3", "--m2", "1,1,0,3", "--orders", "5"], "--orders"),
        (["compose", "nonexistent.txt", "--m2", "1,1,0,3"], "cannot read"),
    ],
)
def test_compose_user_errors(capsys, argv, message):
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_compose_bad_sample_line_has_location(tmp_path, capsys):
    a = tmp_path / "a.txt"
    a.write_text("1\n2\nthree\n4\n5\n")
    assert main(["compose", str(a), "--m2", "1,1,0,3"]) == 2
    assert f"{a}:3" in capsys.readouterr().err


# ------------------------------------------------------------ isoefficiency
def test_isoefficiency_paper_model_json(capsys):
    out = run_json(
        capsys, ["isoefficiency", "--efficiency", "0.1,0.5,0.9", "--p", "16,4096", "--json"]
    )
    rows = {r["p"]: r for r in out["rows"]}
    assert rows[16]["w"]["0.5"] == pytest.approx(8 * 1024 * 4 * 0.063e-6)
    assert rows[4096]["w"]["0.9"] == pytest.approx(9 * 8 * 4096 * 3e-6)
    assert rows[16]["h"] == pytest.approx(8 * (3e-6 + 256 * 0.063e-6))
    assert out["crossover_p"] == pytest.approx((1024 * 0.063 / 3) ** 2)


def test_isoefficiency_table_plot_and_small_p(tmp_path, capsys):
    png = tmp_path / "iso.png"
    assert main(["isoefficiency", "--plot", str(png)]) == 0
    out = capsys.readouterr().out
    assert "w E=0.9" in out and png.stat().st_size > 1000
    assert main(["isoefficiency", "--p", "4,16"]) == 2
    assert "p >= 9" in capsys.readouterr().err
    assert main(["isoefficiency", "--p", "4,16", "--allow-small-p"]) == 0
    captured = capsys.readouterr()
    assert "(invalid)" in captured.out and "warning" in captured.err


def test_isoefficiency_empirical_from_measurements(tmp_path, capsys):
    csv = tmp_path / "m.csv"
    lines = ["# synthetic: T(n) = 1e-6 n^2, Abar = 1e-4 log2 p", "n,p,seconds"]
    for n in (100, 200, 400, 800):
        for p in (1, 2, 4, 8):
            t = 1e-6 * n * n / p + (1e-4 * math.log2(p) if p > 1 else 0.0)
            lines.append(f"{n},{p},{t}")
    csv.write_text("\n".join(lines) + "\n")
    out = run_json(
        capsys,
        [
            "isoefficiency",
            "--measurements",
            str(csv),
            "--efficiency",
            "0.9",
            "--p",
            "8,16",
            "--json",
        ],
    )
    pts = {pt["p"]: pt for pt in out["points"]}
    # Balance T(n) = C p Abar with C = 9: n = sqrt(9 p 1e-4 log2 p / 1e-6).
    for p in (8, 16):
        assert pts[p]["status"] == "ok"
        assert pts[p]["n"] == pytest.approx(math.sqrt(9 * p * 1e-4 * math.log2(p) / 1e-6), rel=1e-6)
    bad = tmp_path / "bad.csv"
    bad.write_text("n,p,seconds\n100,1,0.01\n100,2,0.006\n")
    assert main(["isoefficiency", "--measurements", str(bad)]) == 2
    assert "two or more" in capsys.readouterr().err


# ---------------------------------------------------------------------- hdc
def test_hdc_worked_example_default(capsys):
    assert main(["hdc"]) == 0
    out = capsys.readouterr().out
    assert "communication:    0.929202 s" in out  # computed from l, g and K: the paper's
    js = run_json(capsys, ["hdc", "--json"])
    assert js["prediction"]["communication_s"] == pytest.approx(0.929202, abs=5e-7)
    # our fit of the paper's traces predicts the worked example within 10% of the paper's
    # own 1.916492 s (its Table 3 coefficients are damaged; we refit them)
    assert js["prediction"]["total_s"] == pytest.approx(1.916492, rel=0.10)
    assert len(js["prediction"]["levels"]) == 3
    assert js["measured_s"] == 2.102299
    assert js["relative_error"] == pytest.approx(
        (js["prediction"]["total_s"] - 2.102299) / 2.102299
    )
    assert all(c["r2"] > 0.95 for c in js["components"].values())


def test_hdc_user_traces_and_errors(tmp_path, capsys):
    tr = tmp_path / "tr.csv"
    rows = ["component,N,M,seconds"]
    rows += [f"divide,,{m},{2e-8 * m}" for m in (100, 200, 400)]
    rows += [f"combine,{n},,{1e-7 * n}" for n in (100, 200, 400)]
    rows += [f"sequential,{n},{m},{1e-7 * n + 4e-7 * m}" for n in (100, 300) for m in (100, 400)]
    tr.write_text("\n".join(rows) + "\n")
    js = run_json(
        capsys,
        [
            "hdc",
            "--traces",
            str(tr),
            "--nodes",
            "1000",
            "--edges",
            "4000",
            "--procs",
            "4",
            "--latency",
            "0",
            "--gap",
            "0",
            "--json",
        ],
    )
    # With free communication: 2 levels of divide + combine, plus the leaf on M/4.
    expect = (2e-8 * 4000 + 2e-8 * 2000) + 2 * 1e-7 * 1000 + (1e-7 * 1000 + 4e-7 * 1000)
    assert js["prediction"]["total_s"] == pytest.approx(expect, rel=1e-6)
    assert js["measured_s"] is None
    assert main(["hdc", "--procs", "6"]) == 2
    assert "power-of-two" in capsys.readouterr().err
    assert main(["hdc", "--traces", str(tmp_path / "missing.csv")]) == 2
    assert "cannot read" in capsys.readouterr().err


# ------------------------------------------------------------------ structure --args
ARGV_PROGRAM = r"""#include <stdio.h>
#include <stdlib.h>
static double a[100000];
int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 10;
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        a[i] = i * 0.5;
    printf("%.1f\n", a[n - 1]);
    return 0;
}
"""


def test_structure_sizes_a_loop_from_one_profile_run_kept_for_the_next(
    tmp_path, monkeypatch, capsys
):
    monkeypatch.setenv("AUTOTUNE_DB", str(tmp_path / "runs.db"))
    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path / "cache"))
    src = tmp_path / "argv_prog.c"
    src.write_text(ARGV_PROGRAM)
    assert main(["structure", str(src), "--args", "5000"]) == 0
    out = capsys.readouterr().out
    assert "one build and one run made now" in out and "5000 it." in out
    assert main(["structure", str(src), "--args", "5000"]) == 0
    assert "reused from the database" in capsys.readouterr().out


TIME_LOOP_PROGRAM = r"""#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100, steps = argc > 2 ? atoi(argv[2]) : 5;
    double *u = calloc((size_t)n, sizeof *u), *v = calloc((size_t)n, sizeof *v);
    for (int t = 0; t < steps; t++) {
#pragma omp parallel for
        for (int i = 1; i < n - 1; i++)
            v[i] = 0.5 * (u[i - 1] + u[i + 1]) + t;
        double *tmp = u;
        u = v;
        v = tmp;
    }
    printf("%.1f\n", u[n / 2]);
    return 0;
}
"""


def test_structure_counts_a_time_loop_sized_by_the_arguments(tmp_path, monkeypatch, capsys):
    """``for (t = 0; t < steps; t++)`` with steps from argv: the profile run counted the
    parallel loop's executions, so the iteration's k is that count (as analyze says it),
    not "?"."""
    monkeypatch.setenv("AUTOTUNE_DB", str(tmp_path / "runs.db"))
    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path / "cache"))
    src = tmp_path / "time_loop.c"
    src.write_text(TIME_LOOP_PROGRAM)
    assert main(["structure", str(src), "--args", "600 50"]) == 0
    out = capsys.readouterr().out
    assert "k=50" in out and "598 it." in out and "k=?" not in out
    assert "k = 50: the profile run counted it" in out

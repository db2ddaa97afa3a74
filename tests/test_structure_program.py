"""Timing every node in one build, the sections composition check, whole-program prediction."""

from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path

import numpy as np
import pytest

from autotune.cli.main import main
from autotune.frontend.options import SourceOptions
from autotune.measure.build import build
from autotune.measure.run import run_program
from autotune.structmodels.moments import Moments
from autotune.structure.predict_program import ProgramPredictor
from autotune.structure.program_runs import (
    Measurements,
    PointRuns,
    RunRecord,
    parse_side_channel,
)
from autotune.structure.regions import instrument
from autotune.structure.sections_model import moments_from_raw, predict_max
from autotune.structure.tree import build_tree

KERNELS = Path(__file__).resolve().parent.parent / "kernels"

SECTIONS = r"""#include <stdio.h>
#include <math.h>
#ifndef REPS
#define REPS 6
#endif
#ifndef N
#define N 20000
#endif
static double a[N];
static int where[3];

static double work(int n, int r)
{
    double s = 0.0;
    for (int k = 1; k <= n; k++)
        s += sqrt((double)(k + r));
    return s;
}

int main(void)
{
    double s1 = 0.0, s2 = 0.0;
    int r;
    where[0] = __LINE__;
    for (r = 0; r < REPS; r++) {
#pragma omp parallel sections
        {
#pragma omp section
            s1 += work(N, r);
#pragma omp section
            { s2 += work(N / 2 + r * 100, r); where[1] = __LINE__; }
        }
    }
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        a[i] = sqrt((double)i);
    where[2] = __LINE__;
    printf("%.6e %.6e %.6e\n", s1, s2, a[N - 1]);
    printf("lines %d %d %d\n", where[0], where[1], where[2]);
    return 0;
}
"""


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path / "cache"))


def line_of(text: str, marker: str) -> int:
    return next(i for i, ln in enumerate(text.splitlines(), 1) if marker in ln)


def test_one_timed_build_reports_every_node_and_keeps_lines(tmp_path):
    src = tmp_path / "secs.c"
    src.write_text(SECTIONS)
    tree = build_tree(str(src), SourceOptions())
    text, slots, notes = instrument(SECTIONS, tree)
    assert not notes
    res = build(text, source_path=src, name_hint="secs", cflags=["-O2", "-fopenmp", "-Wall"])
    assert res.ok, res.message
    fd, timing = tempfile.mkstemp(dir=tmp_path)
    os.close(fd)
    run = run_program(res.exe_path, env={"OMP_NUM_THREADS": "2"}, timing_file=timing)
    assert run.status == "ok", run.message
    # user lines keep their numbers: __LINE__ inside and around the timed code
    expect = [line_of(SECTIONS, f"where[{i}] = __LINE__") for i in range(3)]
    assert run.stdout.splitlines()[1] == "lines " + " ".join(map(str, expect))
    rec = parse_side_channel(Path(timing).read_text())
    ids = {n.id for n in tree.nodes() if n.timed}
    assert set(rec.wall) == ids  # every node, and the whole program under main's id
    sec = [n for n in tree.nodes() if n.kind == "section"]
    region = next(n for n in tree.nodes() if n.kind == "sections")
    assert rec.executions[region.id] == 6
    for s in sec:  # one sample per execution, adding up to the node's total
        assert len(rec.samples[s.id]) == rec.executions[s.id] == 6
        assert sum(rec.samples[s.id]) == pytest.approx(rec.wall[s.id], rel=1e-6)
    assert rec.wall[tree.root.id] >= rec.wall[region.id]


def test_measure_compares_sections_with_the_composition_model(tmp_path, capsys):
    src = tmp_path / "secs.c"
    src.write_text(SECTIONS)
    rc = main(
        [
            "structure",
            str(src),
            "--measure",
            "--threads",
            "2",
            "--repetitions",
            "2",
            "--json",
            "--quiet",
        ]
    )
    out = json.loads(capsys.readouterr().out)
    assert rc == 0
    (check,) = out["composition_checks"]
    assert check["samples"] == [12, 12]  # 6 executions x 2 runs, per section
    assert set(check["model"]) == {"deterministic", "heuristic", "lambda", "exact"}
    assert check["measured_region_per_execution"] > 0
    assert "exact" in check["error_vs_region"]
    rc = main(["structure", str(src), "--measure", "--threads", "2", "--repetitions", "2"])
    text = capsys.readouterr().out
    assert rc == 0 and "sections as binary composition" in text and "E[max] exact" in text


def test_predict_whole_program_with_measurement(tmp_path, capsys):
    p = min(2, os.cpu_count() or 1)
    plot = tmp_path / "tree.png"
    rc = main(
        [
            "structure",
            str(KERNELS / "stencil2d.c"),
            "-D",
            "TSTEPS=4",
            "--sizes",
            "N=40,60,80,100",
            "--threads",
            f"1,{p}",
            "--predict",
            f"N=140,p={p}",
            "--repetitions",
            "2",
            "--quiet",
            "--plot",
            str(plot),
        ]
    )
    out = capsys.readouterr().out
    assert rc == 0, out
    m = re.search(r"whole program: predicted (\S+) s, measured (\S+) s, error ([-+]\d+\.\d)%", out)
    assert m, out
    assert float(m.group(1)) > 0 and float(m.group(2)) > 0
    loop = next(ln for ln in out.splitlines() if "omp parallel for" in ln)
    assert "138 it." in loop and "%" in loop  # size at the target, and an error figure
    assert "(sequential remainder)" in out and "k=4 x body" in out
    assert plot.stat().st_size > 1000
    rc = main(
        [
            "structure",
            str(KERNELS / "stencil2d.c"),
            "-D",
            "TSTEPS=4",
            "--sizes",
            "N=40,60,80,100",
            "--threads",
            f"1,{p}",
            "--predict",
            f"N=140,p={p}",
            "--repetitions",
            "2",
            "--json",
        ]
    )
    d = json.loads(capsys.readouterr().out)
    assert rc == 0 and d["target"] == {"N": 140, "p": p, "measured": True}
    for node in [d["tree"], *d["tree"]["children"]]:  # program, call: timed, predicted
        pr = node["prediction"]
        assert pr["predicted_s"] > 0 and pr["measured_s"] > 0
        assert pr["relative_error"] == pytest.approx(
            (pr["predicted_s"] - pr["measured_s"]) / pr["measured_s"]
        )
        assert {g["p"] for g in node["grid"]} == {1, p}
    assert d["whole_program"]["predicted_s"] == d["tree"]["prediction"]["predicted_s"]


# -- the prediction logic on synthetic times (no runs) ---------------------------------------
STEPS = r"""#ifndef N
#define N 100
#endif
static double a[N];
int main(void)
{
    int t;
    for (t = 0; t < N / 10; t++) {
#pragma omp parallel for
        for (int i = 0; i < N; i++)
            a[i] += i;
    }
    return (int)a[0];
}
"""


def test_iteration_scales_by_k_at_the_target(tmp_path):
    """k(n) = N/10 grows with n: executions at the target come from the analysis there."""
    src = tmp_path / "steps.c"
    src.write_text(STEPS)
    tree = build_tree(str(src), SourceOptions({"N": "400"}))
    star = build_tree(str(src), SourceOptions({"N": "800"}))
    it = next(n for n in tree.nodes() if n.kind == "iteration")
    loop = next(n for n in tree.nodes() if n.kind == "loop")
    assert (it.trip_count, star.root.find(it.id).trip_count) == (40, 80)

    def per_exec(n: float, p: int) -> float:  # T(n)/p + Abar with a constant penalty
        return 1e-6 * n / p + 1e-5

    grid = Measurements("N", repetitions=1)
    for n in (100.0, 200.0, 300.0, 400.0):
        for p in (1, 2):
            k = int(n) // 10
            loop_t = k * per_exec(n, p)
            rec = RunRecord(
                wall={
                    loop.id: loop_t,
                    it.id: loop_t + 1e-7 * k,
                    tree.root.id: loop_t + 1e-7 * k + 2e-3,
                },
                executions={loop.id: k, it.id: 1, tree.root.id: 1},
            )
            grid.points[(n, p)] = PointRuns(n, p, [rec])
    est = ProgramPredictor(tree, star, grid, 800, 2).run()
    assert est[loop.id].executions == pytest.approx(80)
    assert est[loop.id].predicted == pytest.approx(80 * per_exec(800, 2), rel=1e-6)
    whole = 80 * per_exec(800, 2) + 80e-7 + 2e-3
    assert est[tree.root.id].predicted == pytest.approx(whole, rel=1e-4)
    assert est[it.id].details["k"] == 80


def test_sections_max_scales_the_sample_shape():
    rng = np.random.default_rng(7)
    a, b = rng.normal(10.0, 1.0, 400), rng.normal(10.0, 1.0, 400)
    shape = PointRuns(100.0, 2, [RunRecord(samples={"s1": list(a), "s2": list(b)})])
    one = predict_max(shape, ["s1", "s2"], [20.0, 20.0], 1)
    assert one.value == pytest.approx(40.0)  # one thread: the sections run in turn
    two = predict_max(shape, ["s1", "s2"], [20.0, 20.0], 2)
    # twice the time, twice the spread: E[max] of two iid N(20, 2^2) = 20 + 2/sqrt(pi)
    assert two.value == pytest.approx(20.0 + 2.0 / np.sqrt(np.pi), rel=0.01)
    assert two.details["methods"]["deterministic"] == pytest.approx(20.0)


def test_moments_from_raw_roundtrip():
    m = Moments(3.0, 0.5, 0.7, 4.2)
    back = moments_from_raw([m.raw(k) for k in (1, 2, 3, 4)])
    assert (back.mean, back.variance, back.skewness, back.kurtosis) == pytest.approx(
        (3.0, 0.5, 0.7, 4.2)
    )

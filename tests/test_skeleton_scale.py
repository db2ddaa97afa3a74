"""``autotune scale``: real measurements over a grid, extrapolated in n, in p, and in both.

The predictor's logic is checked on exact model grids (no harness involved); the
CLI tests build and run a real kernel."""

import json
import re
from pathlib import Path

import pytest

from autotune.cli.main import main
from autotune.skeletons.estimators import ALL_METHODS
from autotune.skeletons.predictor import predict_point
from autotune.tuning.scaling import geometric_sizes, plan_grid, run_noise

KERNEL = Path(__file__).resolve().parents[1] / "kernels" / "compute.c"


@pytest.fixture
def isolated(tmp_path, monkeypatch):
    monkeypatch.setenv("AUTOTUNE_DB", str(tmp_path / "runs.db"))
    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path


def model(n: float, p: int) -> float:
    """Work n^1.5 split over p, plus a penalty growing with p and n (fork/join, memory)."""
    return 1e-7 * n**1.5 / p + 2e-4 * (p - 1) + 1e-9 * n * (p - 1)


GRID = [(n, p, model(n, p)) for n in (1000, 2000, 4000, 8000) for p in (1, 2, 4)]


def test_a_larger_size_at_more_threads_is_extrapolated_in_both_directions():
    """The question users ask most: twice the largest size on a thread count never
    measured. Abar is extrapolated over n for each measured p, then over p."""
    pred = predict_point(GRID, "parmap", 16000, 8, best_effort=True, methods=ALL_METHODS, holdout=2)
    assert pred.ok and pred.direction == "n,p" and len(pred.inner) == 2
    assert pred.time == pytest.approx(model(16000, 8), rel=0.10)
    assert pred.uncertainty is not None or pred.unchecked


def test_the_power_law_method_extrapolates_superlinear_work():
    pred = predict_point(GRID, "parmap", 16000, 2, best_effort=True, methods=ALL_METHODS, holdout=2)
    assert pred.direction == "n" and pred.t_seq.chosen in ("powerlaw", "spline", "lmpoly")
    assert pred.time == pytest.approx(model(16000, 2), rel=0.02)


def test_noise_sets_epsilon_and_a_failed_check_still_answers_marked():
    """3% noise on every time: the default 2% epsilon cannot be met by any method, so
    epsilon follows the measured noise; a check that still fails gives the best
    estimate marked UNCHECKED, with what to measure next."""
    noisy = [(n, p, t * (1.03 if (n // 1000 + p) % 2 else 0.97), 0.03 * t) for n, p, t in GRID]
    pred = predict_point(
        noisy, "parmap", 16000, 2, best_effort=True, methods=ALL_METHODS, holdout=2
    )
    assert pred.ok and pred.time == pytest.approx(model(16000, 2), rel=0.15)
    assert "noise" in pred.t_seq.epsilon_note and pred.t_seq.epsilon > 0.02
    strict = predict_point(
        noisy, "parmap", 16000, 2, methods=("lm",), holdout=2, best_effort=True, epsilon=0.001
    )
    assert strict.ok and strict.unchecked and strict.suggestions
    paper = predict_point(
        [r[:3] for r in noisy], "parmap", 16000, 2, methods=("lm",), holdout=2, epsilon=0.001
    )
    assert not paper.ok and "take more measurements" in paper.failure


def test_robust_noise_ignores_one_stalled_run():
    assert run_noise([1.0, 1.02, 0.98]) == pytest.approx(1.4826 * 0.02)
    assert run_noise([1.0, 1.01, 9.0]) < 0.05


def test_grid_plan_fits_the_budget_and_approaches_the_target():
    probe_calls = []

    def probe(size: int) -> float:  # a program whose loop costs 1e-8 n^2 s on one thread
        probe_calls.append(size)
        return 1e-8 * size**2

    plan = plan_grid(probe, (64000, 16), cores=16, budget_s=60.0)
    assert probe_calls == [1000, 2000] and 1 in plan.threads and 16 in plan.threads
    assert plan.predicted_cost_s <= 60.0 and len(plan.sizes) == 4
    assert plan.sizes[0] == 1000 and plan.sizes[-1] <= 64000
    bigger = plan_grid(probe, (64000, 16), cores=16, budget_s=6000.0)
    assert bigger.sizes[-1] > plan.sizes[-1]
    assert geometric_sizes(1000, 8000) == [1000, 2000, 4000, 8000]


def test_scale_bad_arguments(isolated, capsys):
    rc = main(["scale", str(KERNEL), "--sizes", "N=1000"])
    assert rc == 2 and "at least two" in capsys.readouterr().err
    rc = main(["scale", str(KERNEL), "--sizes", "N=1000,2000", "--predict", "M=5,p=1"])
    assert rc == 2 and "macro of --sizes" in capsys.readouterr().err
    rc = main(["scale", str(KERNEL)])
    assert rc == 2 and "--budget" in capsys.readouterr().err


def test_scale_measures_a_real_kernel(isolated, capsys):
    # Real builds and runs (small sizes, one repetition); the error is reported, not asserted.
    rc = main(
        [
            "scale",
            str(KERNEL),
            "--sizes",
            "N=1500,3000,6000",
            "--threads",
            "1",
            "--predict",
            "N=12000,p=1",
            "--method",
            "lm",
            "--repetitions",
            "1",
            "-D",
            "K=32",
            "--quiet",
        ]
    )
    out = capsys.readouterr().out
    assert rc == 0
    assert "compute.c" in out and "measured T(n,1)" in out and "relative error" in out
    # the report says whether the measured target fell within the interval the methods'
    # check promised, beside whether that check passed (not "checked: yes" alone)
    page = isolated / "report.html"
    assert main(["report", "-o", str(page)]) == 0
    html = page.read_text()
    assert "methods&#39; check (held-out points)" in html or "methods' check" in html
    cell = re.search(
        r'<td class="text">(passed|UNCHECKED: none passed)</td>\s*<td class="text">([^<]*)</td>',
        html,
    )
    assert cell, html[:2000]
    assert cell.group(2) in ("yes", "no interval") or cell.group(2).startswith("no: off by")


ARGV_SIZED = """#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000, reps = argc > 2 ? atoi(argv[2]) : 1;
    double *a = malloc(n * sizeof *a), s = 0.0;
    for (int r = 0; r < reps; r++) {
#pragma omp parallel for
        for (int i = 0; i < n; i++)
            a[i] = (i % 7) * 0.5 + r;
    }
    for (int i = 0; i < n; i++)
        s += a[i];
    printf("%.1f\\n", s);
    return 0;
}
"""


def test_scale_sizes_a_program_through_its_arguments(isolated, capsys):
    """A program sized from argv has no macro to set: ``--args "{N} 3"`` puts each size
    where ``{N}`` stands, the profile run of each size measures its trip counts, and the
    same loop is measured at every size."""
    src = isolated / "argv_sized.c"
    src.write_text(ARGV_SIZED)
    base = ["scale", str(src), "--sizes", "N=20000,40000,80000", "--threads", "1"]
    base += ["--predict", "N=160000,p=1", "--method", "lm", "--repetitions", "1", "--quiet"]
    assert main([*base, "--args", "3"]) == 2
    assert 'write {N} where the size goes, e.g. --args "{N} 50"' in capsys.readouterr().err
    assert main([*base, "--args", "{N} 3", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    (loop,) = doc["loops"]
    assert sorted({m["n"] for m in loop["measurements"]}) == [20000, 40000, 80000], loop


def test_scale_says_an_unwritable_figure_before_measuring(isolated, capsys):
    rc = main(["scale", str(KERNEL), "--sizes", "N=1500,3000", "--plot", "/nonexistent/f.png"])
    assert rc == 2 and "/nonexistent/f.png: cannot write: no such folder" in capsys.readouterr().err
    assert not (isolated / "runs.db").exists()  # nothing was measured, nothing stored


def test_scale_answers_for_16_threads_it_cannot_run(isolated, capsys):
    """Sizes at 1 and 2 threads here, the target at 16 threads and twice the largest
    size: the two-dimensional extrapolation answers (no error), and the grid figure
    of Abar and the Karp-Flatt fraction is written."""
    png = isolated / "grid.png"
    rc = main(
        [
            "scale",
            str(KERNEL),
            "--sizes",
            "N=1500,3000,4500,6000",
            "--threads",
            "1,2",
            "--predict",
            "N=12000,p=16",
            "--no-measure-target",
            "--repetitions",
            "2",
            "-D",
            "K=32",
            "--plot-grid",
            str(png),
            "--json",
            "--quiet",
        ]
    )
    doc = json.loads(capsys.readouterr().out)
    assert rc == 0
    pred = doc["loops"][0]["prediction"]
    assert pred["direction"] == "n,p" and pred["T_n_p"] is not None and pred["T_n_p"] > 0
    assert all("noise_s" in m for m in doc["loops"][0]["measurements"])
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and doc["plots"] == [str(png)]

    # the report shows the prediction and both figures, read back from the database
    page = isolated / "report.html"
    assert main(["report", "-o", str(page)]) == 0
    html = page.read_text()
    assert "Scaling predictions" in html and "N=12000 p=16" in html
    assert f"{pred['T_n_p']:.3g}" in html
    assert html.count('src="data:image/png;base64,') == 2


def test_scale_through_the_api_plans_a_grid_for_a_budget(isolated):
    """Session.scale with a budget: one-thread probes choose the sizes, the grid is
    measured for real, each loop gets a prediction at the target, and the runs are
    stored where the session says."""
    import autotune

    session = autotune.Session(defines={"K": "32"}, repetitions=1)
    runs = []
    done = session.scale(
        KERNEL,
        "N",
        (12000, 1),
        threads=(1,),
        budget_s=3.0,
        on_plan=runs.append,
        method="lm",
    )
    assert done.plan is not None and done.sizes == done.plan.sizes and len(done.sizes) >= 2
    assert runs and runs[0] >= len(done.sizes)
    assert done.results and all(r.prediction.time is not None for r in done.results)
    assert done.database == str(isolated / "runs.db")

"""``autotune measure`` driven as a user would: real front end, emission, gcc, runs."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from measure_support import REDUCTION_C, write_program

from autotune.cli.main import main

KERNEL = Path(__file__).resolve().parent.parent / "kernels" / "dot.c"
SMALL = ["-D", "N=20000", "-D", "REPS=3"]


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("AUTOTUNE_DB", raising=False)


@pytest.fixture()
def kernel(tmp_path) -> Path:
    path = tmp_path / "dot.c"
    shutil.copy(KERNEL, path)
    return path


def _json(capsys, argv) -> dict:
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_json_sweep_then_resume(kernel, tmp_path, capsys):
    argv = [
        "measure",
        str(kernel),
        *SMALL,
        "--variants",
        "static,-,t1 dynamic,4,t2",
        "--repetitions",
        "2",
        "--json",
        "--db",
        str(tmp_path / "m.db"),
    ]
    out = _json(capsys, argv)
    (loop,) = out["loops"]
    assert loop["loop"] == f"{kernel}:21" and out["machine"]["cores"] >= 1
    assert out["flags"]["defines"] == {"N": "20000", "REPS": "3"}
    assert loop["baseline"]["status"] == "ok" and loop["baseline"]["runs"] == 2
    assert [(v["schedule"], v["chunk"], v["threads"]) for v in loop["variants"]] == [
        ("static", None, 1),
        ("dynamic", 4, 2),
    ]
    for v in loop["variants"]:
        assert v["status"] == "ok" and v["message"] == "" and v["runs"] == 2
        assert v["measured_s"] == pytest.approx(sum(v["times_s"]) / 2)  # median of two
    assert (loop["binaries"], loop["compiles"], loop["runs_measured"]) == (2, 2, 6)
    again = _json(capsys, argv)["loops"][0]
    assert (again["runs_measured"], again["runs_resumed"], again["binaries"]) == (0, 6, 0)
    assert [v["times_s"] for v in again["variants"]] == [v["times_s"] for v in loop["variants"]]


def test_runs_made_under_other_openmp_settings_are_not_resumed(
    kernel, tmp_path, capsys, monkeypatch
):
    """OMP_NUM_THREADS=1 runs the original on one thread: its runs are no runs of the
    original as the default team runs it, and a later measure does not take them for
    those (it resumes its own)."""
    for name in [k for k in os.environ if k.startswith(("OMP_", "GOMP_"))]:
        monkeypatch.delenv(name)
    argv = ["measure", str(kernel), *SMALL, "--variants", "static,-,t2", "--repetitions", "1"]
    argv += ["--json", "--db", str(tmp_path / "m.db")]
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    one = _json(capsys, argv)["loops"][0]
    monkeypatch.delenv("OMP_NUM_THREADS")
    default = _json(capsys, argv)["loops"][0]
    again = _json(capsys, argv)["loops"][0]
    assert one["runs_measured"] > 0 and default["runs_resumed"] == 0
    assert default["runs_measured"] == one["runs_measured"]
    assert (again["runs_measured"], again["runs_resumed"]) == (0, default["runs_measured"])


def test_table_of_a_space_from_options(kernel, tmp_path, capsys):
    rc = main(
        [
            "measure",
            str(kernel),
            *SMALL,
            "--schedules",
            "static,guided",
            "--chunks",
            "none,64",
            "--threads",
            "2",
            "--repetitions",
            "1",
            "--db",
            str(tmp_path / "t.db"),
            "--compile-mode",
            "per-variant",
            "--quiet",
        ]
    )
    out = capsys.readouterr().out
    assert rc == 0
    assert "baseline (original)" in out and "speedup" in out
    for key in ("static,-,t2", "static,64,t2", "guided,-,t2", "guided,64,t2"):
        assert key in out
    assert "5 binary(ies) needed" in out and "runs stored in" in out


def test_program_printing_its_own_time(tmp_path, capsys):
    """Its clock line changes from run to run: left out of the comparison by default and
    said; compared with --check-timings (then the original's own runs differ, so no
    variant can be verified, and none is called wrong); --check-ignore and --check none
    still work as before."""
    text = REDUCTION_C.replace(
        "    double sum = 0.0;", "    double t0 = omp_get_wtime(), sum = 0.0;"
    ).replace("    return 0;", '    printf("time %.9f\\n", omp_get_wtime() - t0);\n    return 0;')
    path = write_program(tmp_path, text, "timed.c")
    base = [
        "measure",
        str(path),
        "--variants",
        "static,-,t2",
        "--json",
        "--db",
        str(tmp_path / "c.db"),
    ]
    timed = _json(capsys, base)["loops"][0]
    assert timed["variants"][0]["status"] == "ok"
    assert any(w.startswith("not compared: ") and "'time …'" in w for w in timed["warnings"])
    assert not any("differs between runs" in w for w in timed["warnings"])
    noisy = _json(capsys, [*base, "--check-timings", "--fresh"])["loops"][0]
    assert noisy["variants"][0]["status"] == "not-verified"
    (unstable,) = [w for w in noisy["warnings"] if "differs between runs" in w]
    assert "line 3 ('time " in unstable and "--check-ignore '^time'" in unstable
    clean = _json(capsys, [*base, "--check-ignore", "^time", "--fresh"])["loops"][0]
    assert clean["variants"][0]["status"] == "ok"
    assert not any("differs between runs" in w for w in clean["warnings"])
    unchecked = _json(capsys, [*base, "--check", "none", "--fresh"])["loops"][0]
    assert unchecked["variants"][0]["status"] == "ok"


def test_original_that_does_not_link_is_one_clear_error(tmp_path, capsys):
    text = REDUCTION_C.replace("    return 0;", "    missing_function();\n    return 0;").replace(
        "#include <omp.h>", "#include <omp.h>\nvoid missing_function(void);"
    )
    path = write_program(tmp_path, text, "nolink.c")
    rc = main(["measure", str(path), "--variants", "static", "--db", str(tmp_path / "e.db")])
    err = capsys.readouterr().err
    assert rc == 2 and len(err.strip().splitlines()) == 1
    assert "the original program does not compile: gcc" in err
    assert "undefined reference to `missing_function'" in err


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--repetitions", "0"], "--repetitions must be at least 1"),
        (["--loop", "999"], "no loop matches --loop 999"),
        (["--variants", "fastest"], "unknown schedule 'fastest'"),
        (["--exhaustive", "--threads", "2"], "cannot be combined"),
        (["--cc", "no-such-cc-xyz"], "no-such-cc-xyz"),
        (["--check-ignore", "(["], "bad --check-ignore pattern"),
    ],
)
def test_bad_input_is_exit_2(kernel, tmp_path, capsys, extra, message):
    rc = main(["measure", str(kernel), *SMALL, "--db", str(tmp_path / "b.db"), *extra])
    err = capsys.readouterr().err
    assert rc == 2 and message in err and "Traceback" not in err


RUNTIME_ELSEWHERE = r"""#include <stdio.h>
#define N 200000
static double u[N], v[N];
int main(void)
{
#pragma omp parallel for schedule(static)
    for (int i = 0; i < N; i++)
        u[i] = (i % 17) * 0.25;
#pragma omp parallel for schedule(runtime)
    for (int i = 1; i < N - 1; i++)
        v[i] = 0.5 * u[i] + 0.25 * (u[i - 1] + u[i + 1]);
    double s = 0.0;
    for (int i = 0; i < N; i++)
        s += v[i] * (i % 3);
    printf("%.6f\n", s);
    return 0;
}
"""


def test_a_loop_beside_a_runtime_schedule_gets_binaries_of_its_own(tmp_path, capsys):
    """The run-time selection build sets OMP_SCHEDULE for the whole process, so the
    program's own schedule(runtime) sweep would run each variant's schedule too: the
    initialisation loop's variants are compiled each with its clause instead, and the
    analysis says why; the schedule(runtime) loop itself still shares one build."""
    path = write_program(tmp_path, RUNTIME_ELSEWHERE, "sweep.c")
    assert main(["analyze", str(path), "--json"]) == 0
    loops = {lp["line"]: lp for lp in json.loads(capsys.readouterr().out)["loops"]}
    assert loops[7]["runtime_elsewhere"] == [f"{path}:9"]
    assert any("schedule(runtime) directives at" in w for w in loops[7]["warnings"])
    assert loops[10]["runtime_elsewhere"] == []
    base = ["measure", str(path), "--variants", "dynamic,4,t2", "--repetitions", "1"]
    base += ["--json", "--db", str(tmp_path / "r.db")]
    init = _json(capsys, [*base, "--loop", "7"])["loops"][0]
    assert init["compile_mode"] == "per-variant"
    assert init["variants"][0]["status"] == "ok"
    sweep = _json(capsys, [*base, "--loop", "10"])["loops"][0]
    assert sweep["compile_mode"] == "runtime"


SCHEDULE_REPORT = r"""#include <stdio.h>
#include <omp.h>
#define W 300
static int it[W * W];
int main(void)
{
#pragma omp parallel
    {
        omp_sched_t kind;
        int chunk;
#pragma omp single
        {
            omp_get_schedule(&kind, &chunk);
            printf("schedule kind %d, chunk %d\n", (int)kind, chunk);
        }
#pragma omp for schedule(runtime)
        for (int y = 0; y < W; y++)
            for (int x = 0; x < W; x++) {
                double cr = -2.0 + 3.0 * x / W, ci = -1.5 + 3.0 * y / W, r = cr, i = ci;
                int n = 0;
                while (r * r + i * i <= 4.0 && n < 200) {
                    double t = r * r - i * i + cr;
                    i = 2.0 * r * i + ci;
                    r = t;
                    n++;
                }
                it[y * W + x] = n;
            }
    }
    long s = 0;
    for (int k = 0; k < W * W; k++)
        s += it[k];
    printf("checksum %ld\n", s);
    return 0;
}
"""


def test_a_program_that_reads_its_run_time_schedule_gets_binaries_per_variant(tmp_path, capsys):
    """A Mandelbrot code prints what omp_get_schedule() answers: the run-time selection
    build's OMP_SCHEDULE would change that line for every variant (all 'wrong output').
    Each variant is compiled with its clause instead, and verifies."""
    path = write_program(tmp_path, SCHEDULE_REPORT, "mandel.c")
    assert main(["analyze", str(path), "--json"]) == 0
    (loop,) = json.loads(capsys.readouterr().out)["loops"]
    assert loop["reads_schedule"] == [f"{path}:13"]
    assert any("reads its run-time schedule" in w for w in loop["warnings"])
    base = ["measure", str(path), "--variants", "dynamic,4,t-", "--repetitions", "1"]
    got = _json(capsys, [*base, "--json", "--db", str(tmp_path / "r.db")])["loops"][0]
    assert got["compile_mode"] == "per-variant"
    assert [v["status"] for v in got["variants"]] == ["ok"], got["variants"]


def test_a_best_variant_slower_than_the_original_is_not_called_best():
    """Every variant slower (as measured on a busy machine): the table says none beat the
    original, not 'best verified: ... (0.838x the original)'."""
    import io

    from autotune.cli.measure import _print_loop
    from autotune.measure.results import LoopResult, VariantResult
    from autotune.variants.space import BASELINE, Variant

    def result(variant, times, speedup):
        return VariantResult(variant, "ok", times_s=times, measured_s=times[0], speedup=speedup)

    slower = result(Variant("guided", 8, None), [0.119, 0.119], 0.838)
    res = LoopResult("prog.c:7", result(BASELINE, [0.1, 0.1], 1.0), [slower])
    out = io.StringIO()
    _print_loop(res, 2, out)
    text = out.getvalue()
    assert "best verified" not in text
    assert "no variant beat the original: the fastest verified, guided,8, took 1.19x" in text
    faster = result(Variant("dynamic", 4, None), [0.05, 0.05], 2.0)
    out = io.StringIO()
    _print_loop(LoopResult("prog.c:7", result(BASELINE, [0.1, 0.1], 1.0), [faster]), 2, out)
    assert "best verified: dynamic,4 (2x the original's speed)" in out.getvalue()

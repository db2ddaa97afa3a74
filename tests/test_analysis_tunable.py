"""Loops that must not be varied, and the analysis seen through ``autotune analyze``."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest
from analysis_support import analyze, brute, distinct_bytes, per_thread_static

from autotune.analysis import analyze_file
from autotune.analysis.footprint import thread_chunks
from autotune.frontend.records import LoopRecord


def gated(code: str, tmp_path) -> LoopRecord:
    """The first loop of ``code`` through ``analyze_file``: the figures and the gate."""
    src = tmp_path / "t.c"
    src.write_text(code)
    return analyze_file(str(src)).loops[0]


def test_thread_api_in_body_is_not_tunable(tmp_path):
    code = """int omp_get_thread_num(void); int omp_get_num_threads(void); double a[100];
    void f(void) { int i;
    #pragma omp parallel for
    for (i = 0; i < 100; i++) a[i] = omp_get_thread_num() * 1.0 / omp_get_num_threads(); }
    int main(void) { f(); return 0; }"""
    r = gated(code, tmp_path)
    assert not r.tunable and set(r.kept) == {"schedule", "threads"}
    assert "omp_get_thread_num" in r.reason and "omp_get_num_threads" in r.reason
    assert r.trip_count == 100  # the figures are still computed


def test_thread_api_inside_called_function_is_found(tmp_path):
    code = """int omp_get_thread_num(void); double a[100];
    static int who(void) { return omp_get_thread_num(); }
    void f(void) { int i;
    #pragma omp parallel for
    for (i = 0; i < 100; i++) a[i] = who(); }
    int main(void) { f(); return 0; }"""
    assert "omp_get_thread_num" in gated(code, tmp_path).reason


def test_threadprivate_reference_is_not_tunable(tmp_path):
    code = """double acc; double other[64];
    #pragma omp threadprivate(acc)
    double a[64];
    void f(void) { int i;
    #pragma omp parallel for
    for (i = 0; i < 64; i++) { acc += a[i]; other[i] = a[i]; } }
    int main(void) { f(); return 0; }"""
    r = gated(code, tmp_path)
    assert not r.tunable and "acc" in r.reason and "threadprivate" in r.reason
    clean = gated(code.replace("acc += a[i];", ""), tmp_path)
    assert clean.tunable, clean.reason


def test_noncanonical_parallel_loop_is_not_tunable():
    code = """double a[64];
    void f(void) { int i;
    #pragma omp parallel for
    for (i = 0; i * i < 64; i++) a[i] = 1.0; }"""
    r = analyze(code)
    assert not r.tunable and "canonical" in r.reason


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc with OpenMP")
@pytest.mark.parametrize(
    "n,p,schedule,chunk",
    [(10, 4, "static", None), (7, 3, "static", None), (23, 3, "static", 4), (5, 8, "static", None)],
)
def test_static_split_matches_libgomp(tmp_path, n, p, schedule, chunk):
    """Our per-thread iteration sets are the ones libgomp really hands out."""
    sched = f"schedule({schedule}{', ' + str(chunk) if chunk else ''})"
    src = tmp_path / "owner.c"
    src.write_text(f"""#include <stdio.h>
#include <omp.h>
int main(void) {{ int own[{n}];
#pragma omp parallel for {sched} num_threads({p})
for (int i = 0; i < {n}; i++) own[i] = omp_get_thread_num();
for (int i = 0; i < {n}; i++) printf("%d ", own[i]);
return 0; }}
""")
    exe = tmp_path / "owner"
    subprocess.run(["gcc", "-fopenmp", str(src), "-o", str(exe)], check=True)
    env = {"OMP_DYNAMIC": "false", "PATH": "/usr/bin:/bin"}
    out = subprocess.run([str(exe)], capture_output=True, text=True, check=True, env=env).stdout
    real = [int(x) for x in out.split()]
    ours = [None] * n
    for t, (starts, sizes) in enumerate(thread_chunks(n, p, schedule, chunk)):
        for s, z in zip(starts, sizes, strict=True):
            for i in range(s, s + z):
                ours[i] = t
    assert ours == real


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc for the preprocessor")
def test_cli_json_reports_brute_force_figures(tmp_path, capsys):
    from autotune.cli.main import main

    src = tmp_path / "tri.c"
    src.write_text("""#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <omp.h>
#ifndef N
#define N 300
#endif
static double a[N][N], x[N], y[N];
int main(void)
{
    int i, j;
    for (i = 0; i < N; i++) { x[i] = i; for (j = 0; j < N; j++) a[i][j] = i + j; }
#pragma omp parallel for private(j) schedule(static)
    for (i = 0; i < N; i++) {
        double s = 0.0;
        for (j = 0; j <= i; j++)
            s += a[i][j] * sqrt(x[j]);
        y[i] = s;
    }
    printf("%f\\n", y[N - 1]);
    return 0;
}
""")
    n = 199
    rc = main(["analyze", str(src), "-D", f"N={n}", "--threads", "3", "--json"])
    assert rc == 0
    loop = json.loads(capsys.readouterr().out)["loops"][0]
    ref = brute(
        [("i", lambda e: range(n)), ("j", lambda e: range(e["i"] + 1))],
        [("a", 8, lambda e: e["i"] * n + e["j"]), ("x", 8, lambda e: e["j"])],
        at_depth={0: [("y", 8, lambda e: e["i"])]},
    )
    assert loop["trip_count"] == n and loop["iterations"] == ref["iterations"]
    assert loop["footprint_bytes"] == distinct_bytes(ref)
    assert loop["footprint_bytes_per_thread"] == per_thread_static(ref, 3)
    assert loop["ops"] == {
        "add": ref["iterations"],
        "mul": ref["iterations"],
        "sqrt": ref["iterations"],
    }
    assert loop["tunable"] is True


@pytest.mark.parametrize(
    "n,p,schedule,chunk",
    [
        (10, 3, "static", 2),
        (1000, 4, "dynamic", 7),
        (17, 2, "dynamic", 1),
        (5, 8, "static", 3),
        (100, 3, "guided", 4),
    ],
)
def test_chunk_samples_agree_with_full_chunk_lists(n, p, schedule, chunk):
    from autotune.analysis.footprint import thread_chunk_samples

    full = thread_chunks(n, p, schedule, chunk)
    for cap in (1, 2, 10_000):
        sampled = thread_chunk_samples(n, p, schedule, chunk, cap)
        for (st, sz), (st2, sz2, total) in zip(full, sampled, strict=True):
            assert total == int(sz.sum())
            k = min(len(st), cap + 1) if schedule != "guided" else len(st)
            assert st2[:k].tolist() == st[:k].tolist() and sz2[:k].tolist() == sz[:k].tolist()


def test_offload_and_teams_loops_are_not_tuned(tmp_path, capsys):
    """``target teams distribute parallel for`` runs on a device or a league of teams:
    no variant is written for it (gcc without offload runs it on the host, where the
    teams' threads are still not what a num_threads clause would set)."""
    from autotune.cli.main import main

    src = tmp_path / "offload.c"
    src.write_text(
        "#include <stdio.h>\n#define N 1000\ndouble a[N];\nint main(void) {\n"
        "#pragma omp target teams distribute parallel for\n"
        "    for (int i = 0; i < N; i++) a[i] = i;\n"
        "#pragma omp parallel for\n"
        "    for (int i = 0; i < N; i++) a[i] *= 2;\n"
        '    printf("%f\\n", a[7]);\n    return 0;\n}\n'
    )
    loops = {r.line: r for r in analyze_file(str(src)).loops}
    assert not loops[6].tunable and "target teams distribute parallel for" in loops[6].reason
    assert loops[8].tunable
    assert main(["variants", str(src), "-o", str(tmp_path / "v")]) == 0
    manifest = json.loads((tmp_path / "v" / "manifest.json").read_text())
    by_line = {lp["line"]: lp for lp in manifest["loops"]}
    assert by_line[6]["variants"] == [] and not by_line[6]["tunable"]
    assert by_line[8]["variants"]

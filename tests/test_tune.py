"""rank and tune driven as a user would: the CLI on real C files, real gcc, real runs."""

from __future__ import annotations

import json
from pathlib import Path

from autotune.cli.main import main

STREAM = r"""#include <stdio.h>
#ifndef N
#define N 20000
#endif
static double a[N], b[N];
int main(void) {
  for (int i = 0; i < N; i++) b[i] = i * 0.5;
  for (int t = 0; t < 5; t++) {
#pragma omp parallel for
    for (int i = 0; i < N; i++) a[i] = 2.0 * b[i] + 1.0;
  }
  double s = 0.0;
  for (int i = 0; i < N; i++) s += a[i];
  printf("checksum %.6f\n", s);
  return 0;
}
"""

# Each thread numbers its own iterations: the output depends on how iterations
# are dealt to threads, which no analysis can see. Only variants that deal them
# exactly like the original may pass verification.
SCHEDULE_DEPENDENT = r"""#include <stdio.h>
#define N 4000
static double a[N];
int main(void) {
  double acc = 0.0;
#pragma omp parallel for firstprivate(acc) lastprivate(acc)
  for (int i = 0; i < N; i++) { acc += 1.0; a[i] = acc; }
  double s = 0.0;
  for (int i = 0; i < N; i++) s += a[i] * (i % 7);
  printf("%.1f\n", s);
  return 0;
}
"""

SPACE = ["--schedules", "static,dynamic", "--chunks", "none,4", "--threads", "1,2"]


def write(tmp: Path, name: str, text: str) -> str:
    p = tmp / name
    p.write_text(text)
    return str(p)


def test_rank_orders_by_prediction_without_building(env, capsys):
    src = write(env, "stream.c", STREAM)
    assert main(["rank", src, "--json", "--top", "100", *SPACE]) == 0
    data = json.loads(capsys.readouterr().out)
    (f,) = data["files"]
    assert f["model"] in ("faithful", "extended") and f["target"] == "wall"
    (loop,) = f["loops"]
    preds = [v["predicted_s"] for v in loop["variants"]]
    # 2 schedules x 2 chunks x 2 counts, the four on one thread one class (in order)
    assert len(preds) == 5 and preds == sorted(preds) and all(p > 0 for p in preds)
    assert sum(v["threads"] == 1 for v in loop["variants"]) == 1
    assert all(v["measured_s"] is None and v["status"] == "ranked" for v in loop["variants"])
    cache = env / "cache"
    assert not cache.exists() or not any(cache.rglob("*.c")), "rank must not build"
    assert main(["rank", src, *SPACE]) == 0
    out = capsys.readouterr().out
    assert "predicted" in out and "target wall" in out and "coefficients" in out


def test_tune_measures_only_top_k_plus_original(env, capsys):
    src = write(env, "stream.c", STREAM)
    rc = main(
        [
            "tune",
            src,
            "--top",
            "2",
            "--search",
            "top",
            "--repetitions",
            "1",
            "--json",
            "--allow-busy",
            *SPACE,
        ]
    )
    assert rc == 0
    (loop,) = json.loads(capsys.readouterr().out)["files"][0]["loops"]
    measured = [v for v in loop["variants"] if v["measured_s"] is not None]
    pruned = [v for v in loop["variants"] if v["status"] == "pruned"]
    assert loop["measured_programs"] == 3 and len(measured) == 2 and len(pruned) == 3
    assert [v["key"] for v in loop["variants"][:2]] == [v["key"] for v in measured]
    assert all(v["measured_s"] is None for v in pruned)
    assert loop["baseline"] is not None
    # the model is judged on the loop's figures unless the whole program contradicted them
    if loop["figures_valid"]:
        assert loop["quality"]["n_measured"] == 2
    else:
        assert loop["quality"] is None and "not trusted" in loop["figures_note"]
    # either a verified, faster variant is chosen, or the original is kept and says so
    if loop["best"] is not None:
        chosen = next(v for v in loop["variants"] if v["key"] == loop["best"]["key"])
        assert chosen["status"] == "ok" and chosen["measured_s"] < loop["baseline"]
        assert loop["speedup"] > 1.0
    else:
        assert loop["speedup"] == 1.0 and "original kept" in loop["decision"]


def test_sequential_search_measures_at_most_k_one_at_a_time(env, capsys):
    """The default search: the original, then at most K variants, each chosen after the
    previous one was measured; the steps are reported in the order they were taken."""
    src = write(env, "stream.c", STREAM)
    rc = main(
        [
            "tune",
            src,
            "--top",
            "3",
            "--repetitions",
            "1",
            "--json",
            "--min-share",
            "0",
            "--allow-busy",
            *SPACE,
        ]
    )
    assert rc == 0
    (loop,) = json.loads(capsys.readouterr().out)["files"][0]["loops"]
    measured = [v for v in loop["variants"] if v["measured_s"] is not None]
    steps = loop["search"]["steps"]
    assert 1 <= len(steps) <= 3 and loop["measured_programs"] == 1 + len(steps)
    assert sorted(s["key"] for s in steps) == sorted(v["key"] for v in measured)
    assert loop["search"]["stopped"]
    if loop["figures_valid"]:
        quality = loop["quality"]  # absolute error of the model, raw and anchored
        assert quality["mean_abs_rel_error"] is not None
        assert quality["mean_abs_rel_error_anchored"] is not None
    else:  # the whole program contradicted the loop's timings (a busy 2-core machine, one
        # run each): they judge no model, and the decision says why
        assert loop["quality"] is None and loop["figures_note"] in loop["decision"]
    if loop["best"] is not None:
        chosen = next(v for v in measured if v["key"] == loop["best"]["key"])
        assert chosen["measured_s"] == min(v["measured_s"] for v in measured)
        assert chosen["status"] == "ok" and chosen["measured_s"] < loop["baseline"]
    else:
        assert loop["speedup"] == 1.0 and "original kept" in loop["decision"]


def test_tune_refuses_a_loop_whose_result_depends_on_the_schedule(env, capsys):
    """The legality gate: a private value carried between iterations keeps the loop as
    written; nothing is measured."""
    src = write(env, "dep.c", SCHEDULE_DEPENDENT)
    rc = main(["tune", src, "--exhaustive", "--repetitions", "1", "--json", "--allow-busy", *SPACE])
    assert rc == 0
    (loop,) = json.loads(capsys.readouterr().out)["files"][0]["loops"]
    assert loop["tunable"] is False and "acc is read at line" in loop["reason"]
    assert loop["variants"] == [] and loop["best"] is None


def test_verification_rejects_what_the_gate_would_let_through(env):
    """The second line of defence: with the gate's verdict lifted by hand, the sweep's
    output check marks every variant that deals iterations differently as wrong."""
    from autotune.analysis import analyze_file
    from autotune.measure.store import Store
    from autotune.measure.sweep import SweepOptions, measure_loop
    from autotune.variants.space import Variant

    src = write(env, "dep.c", SCHEDULE_DEPENDENT)
    (record,) = analyze_file(src).loops
    record.tunable, record.reason, record.kept = True, "", {}
    variants = [Variant("dynamic", 4, 2), Variant("static", None, 1), Variant("static", None, 2)]
    with Store(str(env / "verify.db")) as store:
        res = measure_loop(src, record, variants, options=SweepOptions(repetitions=1), store=store)
    status = {v.key: v.status for v in res.variants}
    assert status["dynamic,4,t2"] == "wrong-output" and status["static,-,t1"] == "wrong-output"
    assert status["static,-,t2"] == "ok"  # deals iterations exactly like the original


def test_tune_apply_and_in_place_keep_user_file_safe(env, capsys):
    src = write(env, "stream.c", STREAM)
    out = env / "tuned.c"
    args = [
        "--top",
        "2",
        "--repetitions",
        "1",
        "--schedules",
        "dynamic",
        "--chunks",
        "64",
        "--threads",
        "2",
    ]
    assert main(["tune", src, "--apply", str(out), "--allow-busy", *args]) == 0
    assert Path(src).read_text() == STREAM  # the input is never touched by --apply
    tuned = out.read_text()
    text = capsys.readouterr().out
    diff = [(a, b) for a, b in zip(STREAM.splitlines(), tuned.splitlines(), strict=True) if a != b]
    if "original kept" in text:
        assert diff == [] and f"source written to {out}, unchanged" in text
    else:
        assert f"tuned source written to {out}" in text
        assert len(diff) == 1 and "schedule(dynamic, 64)" in diff[0][1].replace(",64", ", 64")
    assert main(["tune", src, "--in-place", "--allow-busy", *args]) == 0
    text = capsys.readouterr().out
    if Path(src).read_text() == STREAM:  # nothing chosen: no rewrite and no backup
        assert "left as it is" in text and not Path(src + ".orig").exists()
    else:
        assert Path(src + ".orig").read_text() == STREAM
        assert "backup of the original" in text


def test_tune_reports_bad_input_in_one_line(env, capsys):
    assert main(["tune", str(env / "missing.c")]) == 2
    err = capsys.readouterr().err
    assert "missing.c" in err and "Traceback" not in err


def test_tune_polybench_layout_with_extra_source(env, capsys):
    """PolyBench's shape: a utilities directory, sizes reaching the kernel as
    parameters from main, arrays from a helper in another C file."""
    util = env / "utilities"
    util.mkdir()
    (util / "bench.h").write_text(
        "#include <stdlib.h>\n"
        "#define ARRAY_2D(var, d1, d2) var[d1][d2]\n"
        "extern void *bench_alloc(unsigned long n, int size);\n"
    )
    (util / "bench.c").write_text(
        "#include <stdlib.h>\n"
        "void *bench_alloc(unsigned long n, int size) { return calloc(n, size); }\n"
    )
    src = write(
        env,
        "kern.c",
        r"""#include <stdio.h>
#include <bench.h>
#ifndef N
# define N 160
#endif
static void kernel(int n, double ARRAY_2D(A, N, N), double ARRAY_2D(B, N, N)) {
  int i, j, k;
#pragma omp parallel for private(j, k)
  for (i = 0; i < n; i++)
    for (j = 0; j <= i; j++)
      for (k = 0; k < n; k++)
        B[i][j] += A[i][k] * A[j][k];
}
int main(void) {
  int n = N;
  double (*A)[N] = bench_alloc((unsigned long)N * N, sizeof(double));
  double (*B)[N] = bench_alloc((unsigned long)N * N, sizeof(double));
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) A[i][j] = (i * j % 7) * 0.25;
  kernel(n, A, B);
  double s = 0.0;
  for (int i = 0; i < n; i++) s += B[i][i / 2];
  printf("%.6e\n", s);
  return 0;
}
""",
    )
    assert main(["analyze", src, "-I", str(util), "--json"]) == 0
    (alone,) = json.loads(capsys.readouterr().out)["loops"]
    # A and B come from bench_alloc(), whose body is in another file: they might be one
    # array, so the loop is kept until that file is given
    assert not alone["tunable"] and set(alone["kept"]) == {"schedule", "threads"}
    extra = ["--extra-source", str(util / "bench.c")]
    assert main(["analyze", src, "-I", str(util), *extra, "--json"]) == 0
    (loop,) = json.loads(capsys.readouterr().out)["loops"]
    assert loop["tunable"] and loop["trip_count"] == 160  # n resolved from main's call
    assert loop["iterations"] == 160 * 161 // 2 * 160  # triangular, exact
    rc = main(
        [
            "tune",
            src,
            "--allow-busy",
            "-I",
            str(util),
            "--extra-source",
            str(util / "bench.c"),
            "--top",
            "2",
            "--repetitions",
            "1",
            "--min-share",
            "0",  # a loop of a few ms: its share of the run is the load's to decide
            "--json",
            *SPACE,
        ]
    )
    assert rc == 0
    (loop,) = json.loads(capsys.readouterr().out)["files"][0]["loops"]
    assert loop["baseline_status"] == "ok"
    measured = [v["status"] for v in loop["variants"] if v["status"] != "pruned"]
    assert measured == ["ok", "ok"], {k: v for k, v in loop.items() if k != "variants"}


def test_apply_with_nothing_confirmed_writes_an_unchanged_copy_and_says_so(tmp_path, capsys):
    """``tune --apply OUT`` and ``autotune.apply()`` alike: with no loop that may vary (a
    recurrence through a shifted pointer), OUT is a copy of the source, and the command
    says it is unchanged."""
    import autotune

    src = tmp_path / "shifted.c"
    src.write_text(SHIFTED)
    out = tmp_path / "out.c"
    assert main(["tune", str(src), "--apply", str(out), "--allow-busy"]) == 0
    text = capsys.readouterr().out
    assert f"source written to {out}, unchanged: no variant was confirmed" in text
    assert "tuned source written" not in text and out.read_text() == SHIFTED
    result = autotune.tune(src)
    assert not result.final
    again = tmp_path / "again.c"
    assert autotune.apply(result, again) == again and again.read_text() == SHIFTED


SHIFTED = """#include <stdio.h>
#define N 20000
static double a[N + 1];
int main(void)
{
    double *p = a + 1;
    for (int i = 0; i <= N; i++)
        a[i] = (i % 7) * 0.5;
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        p[i] = a[i] * 0.5 + 1.0;
    double s = 0.0;
    for (int i = 0; i <= N; i++)
        s += a[i] * (i % 5);
    printf("%.6f\\n", s);
    return 0;
}
"""

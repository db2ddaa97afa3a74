"""Emitted variants compiled with gcc -fopenmp and run: same output, only directive
lines changed, user line numbers kept, loop time in the side channel."""

from __future__ import annotations

import subprocess
from dataclasses import replace
from pathlib import Path

import pytest
from variants_support import (
    build,
    changed_lines,
    needs_gcc,
    records_for,
    run,
    strip_instrumentation,
    timing_lines,
)

from autotune.variants.emit import EmitError, emit_runtime, emit_variant, runtime_env
from autotune.variants.space import BASELINE, Variant

pytestmark = needs_gcc

# Combined parallel for: inside a time-step loop (7 executions), with existing
# schedule/num_threads, a continued pragma, a body without braces, collapse.
COMBINED_C = r"""#include <stdio.h>
#define N 4000
#define STEPS 7
static double a[N], b[N], c[40][50];

int main(void)
{
    int t, i, j;
    double sum = 0.0, sum2 = 0.0;
    for (i = 0; i < N; i++) b[i] = (double)(i % 13);
    for (t = 0; t < STEPS; t++) {
#pragma omp parallel for schedule(static, 16) num_threads(2) reduction(+:sum)
        for (i = 0; i < N; i++) {
            a[i] = 0.5 * b[i] + t; /* a } in a comment */
            sum += a[i];
        }
    }
#pragma omp parallel for \
        reduction(+:sum2) \
        schedule(dynamic)
    for (i = 0; i < N; i++)
        sum2 += a[i] * 0.25 + (i % 3 == 0 ? 1.0 : 0.0); /* no braces; "}" */
#pragma omp parallel for collapse(2) private(j)
    for (i = 0; i < 40; i++)
        for (j = 0; j < 50; j++)
            if (i > j) c[i][j] = 1.0; else c[i][j] = 2.0 + j;
    printf("sum=%.6f sum2=%.6f c=%.1f; \"}\"\n", sum, sum2, c[3][7] + c[30][2]);
    return 0;
}
"""

# One parallel region holding two worksharing loops, the first nowait.
REGION_C = r"""#include <stdio.h>
#define N 3000
static double a[N], b[N];

int main(void)
{
    int i;
    double s = 0.0;
#pragma omp parallel num_threads(2) shared(a, b)
    {
#pragma omp for nowait
        for (i = 0; i < N; i++)
            a[i] = i * 2.0;
#pragma omp for schedule(guided) reduction(+:s)
        for (i = 0; i < N; i++) {
            b[i] = i * 3.0;
            s += b[i];
        }
    }
    printf("s=%.1f a=%.1f\n", s, a[N - 1]);
    return 0;
}
"""

# Which thread ran which iteration shows the schedule and thread count used.
OWNER_C = r"""#include <stdio.h>
#include <omp.h>
#define N 16
int main(void)
{
    int i, team = 0;
    int owner[N];
#pragma omp parallel for
    for (i = 0; i < N; i++) {
        owner[i] = omp_get_thread_num();
        if (i == 0) team = omp_get_num_threads();
    }
    printf("team=%d owners=", team);
    for (i = 0; i < N; i++) printf("%d", owner[i]);
    printf("\n");
    return 0;
}
"""


def _setup(tmp_path: Path, text: str, name: str = "prog.c") -> tuple[Path, str, list]:
    path = tmp_path / name
    path.write_text(text)
    return path, text, records_for(path)


def test_combined_loops_plain_and_instrumented(tmp_path: Path) -> None:
    path, src, recs = _setup(tmp_path, COMBINED_C)
    assert [r.line for r in recs] == [13, 21, 24]
    expected = run(build(tmp_path, src, "orig", ("-Wall", "-Werror")))
    pragma_lines = {13: [12], 21: [20], 24: [23]}  # loop line -> changed
    for rec, variant in [
        (recs[0], Variant("dynamic", 64, 3)),
        (recs[1], Variant("guided", 8, 2)),
        (recs[2], Variant("static", None, 4)),
    ]:
        plain = emit_variant(src, rec, variant, instrument=False)
        # only the directive's own line changed (for the continued pragma: the
        # line holding its schedule clause, where num_threads is appended too)
        assert changed_lines(src, plain) == pragma_lines[rec.line]
        assert run(build(tmp_path, plain, "plain", ("-Wall", "-Werror"))) == expected
        timed = emit_variant(src, rec, variant)
        timing = tmp_path / f"timing{rec.line}.tsv"
        assert (
            run(build(tmp_path, timed, "timed", ("-Wall", "-Wextra", "-Werror")), timing)
            == expected
        )
        [(loop_id, wall, cpu, execs)] = timing_lines(timing)
        assert loop_id == rec.id
        assert execs == (7 if rec.line == 13 else 1)
        assert 0 < wall < 60 and 0 <= cpu < 60

    text = emit_variant(src, recs[0], Variant("dynamic", 64, 3), instrument=False)
    assert "#pragma omp parallel for schedule(dynamic, 64) num_threads(3) reduction(+:sum)" in text
    text = emit_variant(src, recs[1], Variant("guided", 8, 2), instrument=False)
    assert "        reduction(+:sum2) \\\n        schedule(guided, 8) num_threads(2)\n" in text
    text = emit_variant(src, recs[2], Variant("static", None, 4), instrument=False)
    assert "collapse(2) private(j) schedule(static) num_threads(4)\n" in text


def test_region_with_two_omp_for_loops(tmp_path: Path) -> None:
    path, src, recs = _setup(tmp_path, REGION_C)
    assert [(r.directive.kind, r.parallel.line) for r in recs] == [("for", 9), ("for", 9)]
    expected = run(build(tmp_path, src, "orig"))
    for rec in recs:
        variant = Variant("dynamic", 16, 3)
        plain = emit_variant(src, rec, variant, instrument=False)
        assert changed_lines(src, plain) == [9, rec.directive.line]
        assert "#pragma omp parallel num_threads(3) shared(a, b)\n" in plain
        assert run(build(tmp_path, plain, "plain")) == expected
        timing = tmp_path / f"t{rec.line}.tsv"
        timed = emit_variant(src, rec, variant)
        assert run(build(tmp_path, timed, "timed", ("-Wall", "-Werror")), timing) == expected
        [(loop_id, wall, cpu, execs)] = timing_lines(timing)
        assert (loop_id, execs) == (rec.id, 1) and 0 < wall < 60 and cpu >= 0
    # nowait is kept, and no barrier is added after the nowait loop
    timed = emit_variant(src, recs[0], BASELINE)
    assert "#pragma omp for nowait\n" in timed
    after = timed.split("#pragma omp for nowait", 1)[1].split("#pragma omp for schedule")[0]
    assert "barrier" not in after


def test_baseline_is_the_original_plus_timing(tmp_path: Path) -> None:
    path, src, recs = _setup(tmp_path, COMBINED_C)
    assert emit_variant(src, recs[0], BASELINE, instrument=False) == src
    timed = emit_variant(src, recs[0], BASELINE)
    assert src.split("\n")[11] in timed.split("\n")  # directive as written
    # removing the instrumentation gives the user's file back, byte for byte
    for rec in recs:
        assert strip_instrumentation(emit_variant(src, rec, BASELINE), str(path)) == src
    timing = tmp_path / "t.tsv"
    exe = build(tmp_path, timed, "timed")
    assert run(exe) == run(build(tmp_path, src, "orig"))
    assert not timing.exists()  # nothing written without AUTOTUNE_TIMING_FILE
    run(exe, timing)
    run(exe, timing)  # appends
    assert [x[3] for x in timing_lines(timing)] == [7, 7]


def test_user_lines_keep_their_numbers(tmp_path: Path) -> None:
    bad = COMBINED_C.replace('    printf("sum', '    undeclared_thing = 1;\n    printf("sum')
    bad_line = bad.split("\n").index("    undeclared_thing = 1;") + 1
    path, src, recs = _setup(tmp_path, bad)
    for rec in recs:
        text = emit_variant(src, rec, Variant("guided", 4, 2))
        f = tmp_path / "v.c"
        f.write_text(text)
        proc = subprocess.run(
            ["gcc", "-fopenmp", "-c", "-o", str(tmp_path / "v.o"), str(f)],
            capture_output=True,
            text=True,
            check=False,
        )
        assert proc.returncode != 0
        assert f"{path}:{bad_line}:" in proc.stderr, proc.stderr


def test_schedule_and_threads_take_effect(tmp_path: Path) -> None:
    path, src, [rec] = _setup(tmp_path, OWNER_C)
    out = run(
        build(tmp_path, emit_variant(src, rec, Variant("static", 1, 2), instrument=False), "v")
    )
    assert out == "team=2 owners=0101010101010101\n"
    out = run(build(tmp_path, emit_variant(src, rec, Variant("static", 4, 3)), "v"))
    assert out == "team=3 owners=0000111122220000\n"


def test_runtime_program_serves_many_variants(tmp_path: Path) -> None:
    path, src, [rec] = _setup(tmp_path, OWNER_C)
    text = emit_runtime(src, rec)
    assert "schedule(runtime)" in text
    assert "num_threads(autotune_threads_(0))" in text
    exe = build(tmp_path, text, "rt", ("-Wall", "-Werror"))
    timing = tmp_path / "t.tsv"
    assert run(exe, timing, **runtime_env(Variant("static", 1, 2))) == (
        "team=2 owners=0101010101010101\n"
    )
    assert run(exe, timing, **runtime_env(Variant("static", 2, 3))) == (
        "team=3 owners=0011220011220011\n"
    )
    # threads as written (here: OMP_NUM_THREADS=2), schedule as the variant says
    assert run(exe, timing, **runtime_env(Variant("static", None, None))) == (
        "team=2 owners=0000000011111111\n"
    )
    assert [x[3] for x in timing_lines(timing)] == [1, 1, 1]
    env = runtime_env(Variant("dynamic", 4, 3))
    assert env == {"OMP_SCHEDULE": "dynamic,4", "AUTOTUNE_NUM_THREADS": "3"}
    assert runtime_env(Variant("guided", None, None)) == {"OMP_SCHEDULE": "guided"}


def test_runtime_keeps_the_users_thread_expression(tmp_path: Path) -> None:
    path, src, recs = _setup(tmp_path, REGION_C)
    text = emit_runtime(src, recs[1], instrument=False)
    assert "#pragma omp parallel num_threads(autotune_threads_((2))) shared(a, b)\n" in text
    assert "#pragma omp for schedule(runtime) reduction(+:s)\n" in text
    exe = build(tmp_path, text, "rt")
    expected = run(build(tmp_path, src, "orig"))
    assert run(exe, None, **runtime_env(Variant(None, None, 3), recs[1])) == expected
    # the baseline of a loop with schedule(guided) as written
    assert runtime_env(BASELINE, recs[1]) == {"OMP_SCHEDULE": "guided"}
    combined = records_for(tmp_path / "c.c") if (tmp_path / "c.c").write_text(COMBINED_C) else []
    assert runtime_env(Variant(None, None, 2), combined[0]) == {
        "OMP_SCHEDULE": "static,16",
        "AUTOTUNE_NUM_THREADS": "2",
    }


def test_unemittable_loops_raise_emit_error(tmp_path: Path) -> None:
    path, src, [rec] = _setup(tmp_path, OWNER_C)
    # the for comes from a macro: not in the text, cannot be instrumented
    macro = src.replace("#define N 16", "#define N 16\n#define EACH for (i = 0; i < N; i++)")
    macro = macro.replace(
        "    for (i = 0; i < N; i++) {\n        owner", "    EACH {\n        owner"
    )
    moved = replace(
        rec, line=rec.line + 1, directive=replace(rec.directive, line=rec.directive.line + 1)
    )
    with pytest.raises(EmitError, match="macro"):
        emit_variant(macro, moved, Variant("static", None, 2))
    # the file changed since the analysis: lines no longer match
    with pytest.raises(EmitError):
        emit_variant("/* a new first line */\n" + src, rec, Variant("static", None, 2))
    with pytest.raises(EmitError, match="auto"):
        emit_variant(src, rec, Variant("auto", 4, None))
    with pytest.raises(EmitError, match="thread count"):
        emit_variant(src, replace(rec, parallel=None), Variant("static", None, 2))
    with pytest.raises(EmitError, match="not tunable"):
        emit_variant(src, replace(rec, tunable=False, reason="ordered"), Variant("static", 1, 2))


STEPS_IN_REGION_C = r"""#include <stdio.h>
#define N 3000
static double a[N], b[N];
int main(void)
{
    int i, t;
    double s = 0.0;
#pragma omp parallel private(t)
    for (t = 0; t < 9; t++) {
#pragma omp for nowait
        for (i = 0; i < N; i++)
            a[i] = i * 2.0 + t;
#pragma omp for reduction(+:s)
        for (i = 0; i < N; i++) { b[i] = i * 3.0; s += b[i]; }
    }
    printf("s=%.1f a=%.1f\n", s, a[N - 1]);
    return 0;
}
"""


def test_time_steps_inside_a_region_count_executions(tmp_path: Path) -> None:
    path, src, recs = _setup(tmp_path, STEPS_IN_REGION_C)
    expected = run(build(tmp_path, src, "orig"))
    timing = tmp_path / "t.tsv"
    for rec in recs:  # the nowait loop and the reduction loop, one program each
        timed = emit_variant(src, rec, Variant("dynamic", 16, 2))
        assert run(build(tmp_path, timed, "v"), timing) == expected
    assert [(x[0], x[3]) for x in timing_lines(timing)] == [(r.id, 9) for r in recs]
    assert all(0 < x[1] < 60 for x in timing_lines(timing))


def test_the_timed_window_opens_after_the_cpu_clock_is_read(tmp_path: Path) -> None:
    """clock() is a system call of about half a microsecond: read inside the window, it
    was counted as loop time at every run of the loop, most of what was measured for a
    wavefront's diagonal (1 us, 120,000 runs). Every window of every timing mode starts
    with the CPU clock read and then the wall clock, and ends the other way round, so
    neither clock() call falls inside the wall-time window."""
    path, src, recs = _setup(tmp_path, COMBINED_C)
    text = emit_variant(src, recs[0], Variant("dynamic", 64, 3))
    start = text[text.index("static void autotune_start_(struct autotune_mark_ *autotune_m)\n") :]
    start = start[: start.index("\n}\n")]
    assert start.index("autotune_clock_()") < start.index("autotune_omp_get_wtime_()")
    end = text[text.index("static void autotune_now_(struct autotune_mark_ *autotune_m)\n") :]
    end = end[: end.index("\n}\n")]
    assert end.index("autotune_omp_get_wtime_()") < end.index("autotune_clock_()")
    opened = [line for line in text.splitlines() if "autotune_mark" in line and "_(&" in line]
    assert opened and all("autotune_start_(" in line for line in opened if "_add_" not in line)

"""``autotune variants`` driven as a user would, in-process, with the real front end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from variants_support import build, changed_lines, needs_gcc, run, timing_lines

from autotune.analysis import analyze_file
from autotune.cli.main import main
from autotune.variants.space import default_space

# Three parallel loops, each its own region: a map, a guided reduction, and an
# ordered loop (its ordered region prints in the iterations' order under any schedule).
THREE_LOOPS_C = r"""#include <stdio.h>
#define N 3000
static double a[N], b[N];

int main(void)
{
    double s = 0.0;
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        a[i] = i * 2.0;
#pragma omp parallel for schedule(guided) reduction(+:s)
    for (int i = 0; i < N; i++) {
        b[i] = a[i] * 3.0;
        s += b[i];
    }
#pragma omp parallel for ordered
    for (int i = 0; i < 4; i++) {
#pragma omp ordered
        printf("%d\n", i);
    }
    printf("s=%.1f a=%.1f\n", s, a[N - 1]);
    return 0;
}
"""


@pytest.fixture
def program(tmp_path: Path) -> Path:
    src = tmp_path / "three.c"
    src.write_text(THREE_LOOPS_C)
    return src


@needs_gcc
def test_writes_variants_and_manifest(
    tmp_path: Path, program: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    argv = ["variants", str(program), "-o", str(out), "--schedules", "static,dynamic"]
    rc = main([*argv, "--chunks", "none,4", "--threads", "1,3", "--json"])
    assert rc == 0
    manifest = json.loads(capsys.readouterr().out)
    assert manifest == json.loads((out / "manifest.json").read_text())
    assert manifest["source"] == str(program) and manifest["instrumented"] is False
    ids = [lp["id"] for lp in manifest["loops"]]
    assert ids == [f"{program}:9", f"{program}:12", f"{program}:17"]
    expected = run(build(tmp_path, THREE_LOOPS_C, "orig"))
    for loop in manifest["loops"]:
        keys = [v["key"] for v in loop["variants"]]
        assert keys[0] == "baseline" and len(keys) == 1 + 2 * 2 * 2
        for v in loop["variants"][1:]:
            text = (out / v["file"]).read_text()
            assert changed_lines(THREE_LOOPS_C, text) == [loop["line"] - 1]
            sched = f"schedule({v['schedule']}" + (f", {v['chunk']})" if v["chunk"] else ")")
            assert sched in v["directive"] and f"num_threads({v['threads']})" in v["directive"]
        for v in loop["variants"][1::5]:  # compile two: the same output as the original
            exe = build(tmp_path, (out / v["file"]).read_text(), "v")
            assert run(exe) == expected
    assert "three.L12.dynamic-4-t3.c" in {p.name for p in out.iterdir()}


@needs_gcc
def test_instrumented_single_loop_default_space(
    tmp_path: Path, program: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    argv = ["variants", str(program), "--loop", "12", "--cores", "2", "--instrument"]
    assert main([*argv, "-o", str(out)]) == 0
    stdout = capsys.readouterr().out
    assert "manifest.json written" in stdout and "dynamic,4,t2" in stdout
    manifest = json.loads((out / "manifest.json").read_text())
    [loop] = manifest["loops"]
    record = next(r for r in analyze_file(str(program), threads=2).loops if r.line == 12)
    assert len(loop["variants"]) == 1 + len(default_space(record, 2))
    v = next(v for v in loop["variants"] if v["key"] == "guided,-,t4")
    timing = tmp_path / "t.tsv"
    exe = build(tmp_path, (out / v["file"]).read_text(), "v")
    assert run(exe, timing) == run(build(tmp_path, THREE_LOOPS_C, "orig"))
    [(loop_id, wall, _cpu, execs)] = timing_lines(timing)
    assert loop_id == loop["id"] and execs == 1 and wall > 0


def test_bad_input_is_one_line_and_exit_2(
    tmp_path: Path, program: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = [
        (["--schedules", "fast"], "unknown schedule"),
        (["--chunks", "0"], "at least 1"),
        (["--threads", "two"], "not a whole number"),
        (["--loop", "999"], "no loop matches"),
        (["--cores", "0"], "at least 1"),
    ]
    for extra, message in cases:
        assert main(["variants", str(program), "-o", str(tmp_path / "o"), *extra]) == 2
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1 and "Traceback" not in err
    assert main(["variants", str(tmp_path / "nope.c"), "-o", str(tmp_path / "o")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_not_tunable_loops_are_listed_not_varied(
    tmp_path: Path, program: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The third loop's ordered region names the thread that ran each iteration."""
    src = tmp_path / "who.c"
    src.write_text(
        "#include <omp.h>\n"
        + THREE_LOOPS_C.replace(
            'printf("%d\\n", i);', 'printf("%d %d\\n", i, omp_get_thread_num());'
        )
    )
    argv = ["variants", str(src), "-o", str(tmp_path / "o"), "--threads", "2"]
    assert main([*argv, "--schedules", "static", "--chunks", "none"]) == 0
    assert "not tunable: calls omp_get_thread_num()" in capsys.readouterr().out
    manifest = json.loads((tmp_path / "o" / "manifest.json").read_text())
    counts = [
        len([v for v in lp["variants"] if v["key"] != "baseline"]) for lp in manifest["loops"]
    ]
    assert counts == [1, 1, 0]


@needs_gcc
def test_a_shared_region_keeps_its_thread_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two loops in one region with a nowait between them: the gate keeps the thread
    count (and the nowait loop's schedule); what is varied still computes the same."""
    from test_variants_emit import REGION_C

    src = tmp_path / "region.c"
    src.write_text(REGION_C)
    out = tmp_path / "out"
    argv = ["variants", str(src), "-o", str(out), "--chunks", "8", "--schedules", "dynamic"]
    assert main([*argv, "--json"]) == 0
    manifest = json.loads(capsys.readouterr().out)
    expected = run(build(tmp_path, REGION_C, "orig"))
    varied = [lp for lp in manifest["loops"] if len(lp["variants"]) > 1]
    assert varied, "at least the loop after the nowait chain can change its schedule"
    for loop in varied:
        for v in loop["variants"][1:]:
            assert "num_threads" not in v["directive"]
            text = (out / v["file"]).read_text()
            assert changed_lines(REGION_C, text) == [loop["line"] - 1]
            assert run(build(tmp_path, text, "v")) == expected

"""``autotune variants`` driven as a user would, in-process."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import autotune.frontend
from autotune.cli.main import main
from autotune.frontend.records import TranslationUnit
from autotune.variants.space import default_space
from tests.test_variants_emit import REGION_C
from tests.variants_support import build, changed_lines, needs_gcc, records_for, run, timing_lines


@pytest.fixture
def hand_frontend(monkeypatch: pytest.MonkeyPatch) -> None:
    """Loop records made by text scanning, so these tests do not depend on the analysis."""

    def analyze_options(path, options, threads=None, cc="gcc"):  # noqa: ANN001, ANN202
        return TranslationUnit(
            path=path, defines=dict(options.defines), loops=records_for(Path(path))
        )

    monkeypatch.setattr(autotune.frontend, "analyze_options", analyze_options)


@needs_gcc
def test_writes_variants_and_manifest(
    tmp_path: Path, hand_frontend: None, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "region.c"
    src.write_text(REGION_C)
    out = tmp_path / "out"
    rc = main(
        [
            "variants",
            str(src),
            "-o",
            str(out),
            "--schedules",
            "static,dynamic",
            "--chunks",
            "none,4",
            "--threads",
            "1,3",
            "--json",
        ]
    )
    assert rc == 0
    manifest = json.loads(capsys.readouterr().out)
    assert manifest == json.loads((out / "manifest.json").read_text())
    assert manifest["source"] == str(src) and manifest["instrumented"] is False
    assert [lp["id"] for lp in manifest["loops"]] == [f"{src}:12", f"{src}:15"]
    expected = run(build(tmp_path, REGION_C, "orig"))
    for loop in manifest["loops"]:
        keys = [v["key"] for v in loop["variants"]]
        assert keys[0] == "baseline" and len(keys) == 1 + 2 * 2 * 2
        for v in loop["variants"]:
            text = (out / v["file"]).read_text()
            if v["key"] == "baseline":
                assert text == REGION_C
                continue
            ws_line = loop["line"] - 1
            assert changed_lines(REGION_C, text) == [9, ws_line]
            sched = f"schedule({v['schedule']}" + (f", {v['chunk']})" if v["chunk"] else ")")
            assert sched in v["directive"] and v["directive"].startswith("#pragma omp for")
            assert f"num_threads({v['threads']})" in v["parallel_directive"]
        # compile two of them: same output as the original
        for v in loop["variants"][1::5]:
            exe = build(tmp_path, (out / v["file"]).read_text(), "v")
            assert run(exe) == expected
    files = sorted(p.name for p in out.iterdir())
    assert len(files) == 1 + 2 * 9 and "region.L12.dynamic-4-t3.c" in files


@needs_gcc
def test_instrumented_single_loop_default_space(
    tmp_path: Path, hand_frontend: None, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "region.c"
    src.write_text(REGION_C)
    out = tmp_path / "out"
    assert (
        main(["variants", str(src), "--loop", "15", "--cores", "2", "--instrument", "-o", str(out)])
        == 0
    )
    stdout = capsys.readouterr().out
    assert "manifest.json written" in stdout and "dynamic,4,t2" in stdout
    manifest = json.loads((out / "manifest.json").read_text())
    [loop] = manifest["loops"]
    record = records_for(src)[1]
    assert len(loop["variants"]) == 1 + len(default_space(record, 2))
    v = next(v for v in loop["variants"] if v["key"] == "guided,-,t4")
    timing = tmp_path / "t.tsv"
    exe = build(tmp_path, (out / v["file"]).read_text(), "v")
    assert run(exe, timing) == run(build(tmp_path, REGION_C, "orig"))
    [(loop_id, wall, _cpu, execs)] = timing_lines(timing)
    assert loop_id == loop["id"] and execs == 1 and wall > 0


def test_bad_input_is_one_line_and_exit_2(
    tmp_path: Path, hand_frontend: None, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "region.c"
    src.write_text(REGION_C)
    cases = [
        (["--schedules", "fast"], "unknown schedule"),
        (["--chunks", "0"], "at least 1"),
        (["--threads", "two"], "not a whole number"),
        (["--loop", "999"], "no loop matches"),
        (["--cores", "0"], "at least 1"),
    ]
    for extra, message in cases:
        assert main(["variants", str(src), "-o", str(tmp_path / "o"), *extra]) == 2
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1 and "Traceback" not in err
    assert main(["variants", str(tmp_path / "nope.c"), "-o", str(tmp_path / "o")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_not_tunable_loops_are_listed_not_varied(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "region.c"
    src.write_text(REGION_C)
    recs = records_for(src)
    recs[0].tunable, recs[0].reason = False, "ordered clause"
    monkeypatch.setattr(
        autotune.frontend,
        "analyze_options",
        lambda path, options, threads=None, cc="gcc": TranslationUnit(path=path, loops=recs),
    )
    assert (
        main(
            [
                "variants",
                str(src),
                "-o",
                str(tmp_path / "o"),
                "--threads",
                "2",
                "--schedules",
                "static",
                "--chunks",
                "none",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "not tunable: ordered clause" in out
    manifest = json.loads((tmp_path / "o" / "manifest.json").read_text())
    assert [len(lp["variants"]) for lp in manifest["loops"]] == [0, 2]


@needs_gcc
def test_with_the_real_front_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "region.c"
    src.write_text(REGION_C)
    unit = autotune.frontend.analyze_file(str(src))
    if not any(r.tunable for r in unit.loops):
        pytest.skip(f"front end analysis not available yet: {unit.loops[0].reason}")
    out = tmp_path / "out"
    # two loops share the region: its thread count is not varied per loop (the gate)
    assert (
        main(
            [
                "variants",
                str(src),
                "-o",
                str(out),
                "--chunks",
                "8",
                "--schedules",
                "dynamic",
                "--json",
            ]
        )
        == 0
    )
    manifest = json.loads(capsys.readouterr().out)
    expected = run(build(tmp_path, REGION_C, "orig"))
    for loop in manifest["loops"]:
        [base, v] = loop["variants"]
        text = (out / v["file"]).read_text()
        assert changed_lines(REGION_C, text) == [loop["line"] - 1]
        assert run(build(tmp_path, text, "v")) == expected

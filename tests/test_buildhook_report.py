"""The decision log and 'autotune report-build'."""

from __future__ import annotations

import json

import pytest

from autotune.buildhook import report
from autotune.buildhook.report import LoopDecision, SourceDecision
from autotune.cli.main import main


def record(t: float, source: str, used: str = "original", build: str = "", **kw) -> dict:
    dec = SourceDecision(
        source, f"/p/{source}", used=used, reason=kw.get("reason", "why"), loops=kw.get("loops", [])
    )
    rec = report.make_record(
        [dec],
        mode="apply",
        compiler="gcc",
        output=kw.get("output"),
        returncode=None,
        argv=["gcc", "-c", source],
    )
    rec.update(time=t, build=build, cwd="/p")
    return rec


def write_log(path, records) -> None:
    for r in records:
        report.append_record(str(path), r)


def test_last_build_groups_by_time_gap_and_build_id():
    old = [record(0, "a.c"), record(5, "b.c")]
    new = [record(1000, "a.c"), record(1030, "c.c"), record(1100, "a.c", used="tuned")]
    assert report.last_build(old + new, gap_s=120) == new
    assert report.last_build(old + new, gap_s=50) == [new[-1]]
    tagged = [record(2000, "a.c", build="b1"), record(9000, "c.c", build="b1")]
    assert report.last_build(old + tagged, gap_s=1) == tagged
    latest = report.latest_per_source(new)
    assert [(s["source"], s["used"]) for s in latest] == [("a.c", "tuned"), ("c.c", "original")]


def test_append_is_line_atomic_and_skips_torn_lines(tmp_path):
    log = tmp_path / "x.builds.jsonl"
    write_log(log, [record(1, "a.c")])
    with open(log, "a") as fh:
        fh.write('{"torn": ')  # a crashed writer
    write_log(log, [record(2, "b.c")])
    assert [r["sources"][0]["source"] for r in report.read_log(str(log))] == ["a.c"]  # b glued


def test_report_build_cli_table_and_json(tmp_path, capsys):
    db = tmp_path / "r.db"
    log = tmp_path / "r.builds.jsonl"
    loops = [
        LoopDecision("src/k.c:12", 12, "tuned", "dynamic,4,t2", "measured: 2.00x faster", "kern"),
        LoopDecision("src/k.c:30", 30, "original", "baseline", "not tuned", "other"),
    ]
    write_log(
        log,
        [
            record(10, "old.c"),
            record(500, "src/k.c", used="tuned", loops=loops, output="k.o"),
            record(501, "src/m.c", reason="no tuned result for this file"),
        ],
    )
    assert main(["report-build", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "2 compile(s) of 2 C source(s)" in out and "1 loop(s) compiled tuned" in out
    assert "dynamic,4 on 2 threads" in out and "no tuned result for this file" in out
    assert "old.c" not in out
    assert main(["report-build", "--log", str(log), "--json", "--all"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["build"]["compiles"] == 3 and doc["build"]["loops_tuned"] == 1
    kern = next(s for s in doc["sources"] if s["source"] == "src/k.c")
    assert kern["output"] == "k.o" and kern["loops"][0]["variant"] == "dynamic,4,t2"


def test_report_build_without_a_log_is_a_user_error(tmp_path, capsys):
    assert main(["report-build", "--db", str(tmp_path / "none.db")]) == 2
    assert "no compile decisions recorded yet" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["report-build", "--gap", "x"])

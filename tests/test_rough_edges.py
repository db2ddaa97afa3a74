"""Rough edges a new user hit, each driven as the user drove it (CLI or API)."""

from __future__ import annotations

import json
import os
import sys

import pytest

import autotune
from autotune.cli.main import main
from autotune.errors import UserError

STREAM_STYLE = r"""#include <stdio.h>
#define N 50000
static double a[N], b[N];
int main(void)
{
#pragma omp parallel for
    for (int j = 0; j < N; j++)
        a[j] = 2.0 * b[j] + 1.0;
    printf("%f\n", a[7]);
    return 0;
}
"""


def test_rank_goes_on_past_a_file_without_loops(tmp_path, monkeypatch, capsys):
    """``autotune rank kernels/*.c`` where one file has no OpenMP loop: the others are
    ranked, the file is named as skipped, the exit status is 0."""
    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path / "cache"))
    plain, loops = tmp_path / "a_plain.c", tmp_path / "b_stream.c"
    plain.write_text("int main(void) { return 0; }\n")
    loops.write_text(STREAM_STYLE)
    assert main(["rank", str(plain), str(loops)]) == 0
    captured = capsys.readouterr()
    assert "skipped" in captured.err and "a_plain.c" in captured.err
    assert "b_stream.c:7" in captured.out
    assert main(["rank", str(plain), str(loops), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [f["file"] for f in doc["files"]] == [str(loops)]
    assert doc["skipped"][0]["file"] == str(plain)
    assert main(["rank", str(plain)]) == 2  # nothing at all to rank: an error


def test_the_api_takes_lists_for_the_variant_space(tmp_path, monkeypatch):
    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path / "cache"))
    src = tmp_path / "stream.c"
    src.write_text(STREAM_STYLE)
    ranked = autotune.Session(db=tmp_path / "r.db").rank(
        src, schedules=["static", "dynamic"], chunks=[None, 8], threads=[1, 2]
    )
    (r,) = ranked.rankings
    keys = {rv.variant.key for rv in r.variants}
    assert keys and all(k.split(",")[0] in ("static", "dynamic") for k in keys)
    assert {k.split(",")[2] for k in keys} <= {"t1", "t2"}
    try:
        autotune.Session(db=tmp_path / "r.db").rank(src, threads=[])
    except UserError as exc:
        assert "non-empty list" in str(exc)
    else:
        raise AssertionError("an empty list was accepted")


def test_an_unknown_option_shows_the_commands_own_usage(tmp_path, capsys):
    src = tmp_path / "stream.c"
    src.write_text(STREAM_STYLE)
    try:
        main(["tune", str(src), "--bogus"])
    except SystemExit as exc:
        assert exc.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: autotune tune") and "unrecognized arguments: --bogus" in err


def test_a_directory_or_a_cxx_file_is_said_for_what_it_is(tmp_path, capsys):
    assert main(["analyze", str(tmp_path)]) == 2
    assert "is a directory, not a C file" in capsys.readouterr().err
    cxx = tmp_path / "kernel.cpp"
    cxx.write_text("int main() { return 0; }\n")
    assert main(["rank", str(cxx)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "C++" in err[0]


def test_exporting_an_empty_database_says_so(tmp_path, capsys):
    from autotune.measure.store import Store

    db = tmp_path / "empty.db"
    Store(db).close()
    for fmt in ("csv", "json"):
        assert main(["export", "--db", str(db), "--format", fmt]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "nothing to export" in err[0] and str(db) in err[0]
    missing = tmp_path / "missing.db"
    assert main(["export", "--db", str(missing)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"autotune: error: no measurement database at {missing}"]
    assert not missing.exists()  # reading makes no database


def test_progress_past_its_plan_makes_up_no_estimate():
    """Re-measured near ties can take a tune past its planned runs: the lines say so
    instead of "820/526 (100%) ... about 0 s left"."""
    import io

    from autotune.render import Progress

    out = io.StringIO()
    bar = Progress(4, "tune", stream=out)
    bar.LINE_EVERY_S = 0.0
    for _ in range(6):
        bar.advance(1, "run")
    lines = out.getvalue().splitlines()
    assert "4/4 (100%)" in lines[3] and "left" in lines[3]
    assert "past the 4 planned" in lines[-1] and "left" not in lines[-1]


def test_an_interrupt_while_starting_is_one_line(monkeypatch, capsys):
    """Ctrl-C in the first second (while a command's module is imported): no traceback."""
    import importlib

    def interrupted(name, *args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(importlib, "import_module", interrupted)
    assert main(["rank", "x.c"]) == 130
    assert capsys.readouterr().err.strip() == "autotune: interrupted"


def test_a_ranking_says_ranked_not_pruned(tmp_path, monkeypatch):
    """``rank(...)`` (its JSON and the rows ``to_frame()`` is built from): nothing was
    measured or pruned, every variant is "ranked"."""
    from autotune.render import variant_rows

    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path / "cache"))
    src = tmp_path / "stream.c"
    src.write_text(STREAM_STYLE)
    ranked = autotune.Session(db=tmp_path / "r.db").rank(src)
    rows = variant_rows(ranked.to_dict()["loops"], file=str(src))
    assert rows and {r["status"] for r in rows} == {"ranked"}


def test_rank_is_not_stopped_by_a_default_database_it_cannot_open(tmp_path, monkeypatch, capsys):
    """rank reads the default database for calibrated coefficients; a damaged one (or one
    on a read-only disk) is a note, and ranking goes on with the shipped coefficients."""
    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("AUTOTUNE_DB", raising=False)
    (tmp_path / "cache").mkdir()
    (tmp_path / "cache" / "autotune.db").write_text("not a database\n")
    src = tmp_path / "stream.c"
    src.write_text(STREAM_STYLE)
    assert main(["rank", str(src)]) == 0
    captured = capsys.readouterr()
    assert "note: " in captured.err and "shipped coefficients" in captured.err
    assert "shipped defaults" in captured.out


SLOW_PROGRAM = r"""#include <stdio.h>
#include <unistd.h>
static double a[64];
int main(int argc, char **argv)
{
    (void)argv;
#pragma omp parallel for
    for (int i = 0; i < 64; i++)
        a[i] = i + argc;
    sleep(60); /* a long run: autotune is killed while it goes on */
    printf("%.1f\n", a[63]);
    return 0;
}
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_a_killed_autotune_leaves_no_run_going_and_its_files_are_swept(tmp_path):
    """SIGKILL (no clean-up possible) while a measured program runs: the program dies
    with autotune, and the next autotune removes the killed one's side-file folder."""
    import signal
    import subprocess
    import time

    from autotune.measure.scratch import PREFIX, sweep_stale

    src = tmp_path / "slow.c"
    src.write_text(SLOW_PROGRAM)
    marker = f"autotune-kill-test-{os.getpid()}"
    env = {**os.environ, "AUTOTUNE_DB": str(tmp_path / "r.db"), "TMPDIR": str(tmp_path)}
    env["AUTOTUNE_CACHE_DIR"] = str(tmp_path / "cache")
    cmd = [sys.executable, "-m", "autotune", "measure", str(src), "--args", marker, "--quiet"]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        child = _wait_for_process(marker, 60)
        assert child is not None, "the measured program never started"
        (folder,) = tmp_path.glob(f"{PREFIX}{proc.pid}-*")
        assert folder.is_dir()
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        deadline = time.monotonic() + 10
        while _running(child) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _running(child), "the measured program outlived autotune"
    finally:
        proc.kill()
    assert sweep_stale(tmp_path) == [folder]


def _wait_for_process(marker: str, timeout_s: float) -> int | None:
    import time

    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                cmdline = open(f"/proc/{entry}/cmdline", "rb").read().split(b"\0")
            except OSError:
                continue
            if marker.encode() in cmdline and b"-m" not in cmdline:
                return int(entry)
        time.sleep(0.1)
    return None


def _running(pid: int) -> bool:
    try:
        state = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_a_block_after_a_loop_directive_is_one_line_as_the_compiler_says(tmp_path, capsys):
    """``#pragma omp parallel for`` then ``{ for ... }`` (DataRaceBench's miniAMR
    extract is written so): gcc and clang reject it. It is said at the directive's line,
    not analysed as if the braces were not there."""
    src = tmp_path / "blocks.c"
    src.write_text(
        "double work[1000];\nint main(void)\n{\n    int b;\n#pragma omp parallel for\n"
        "    {\n        for (b = 0; b < 1000; ++b)\n            work[b] = b * 0.5;\n    }\n"
        "    return 0;\n}\n"
    )
    assert main(["analyze", str(src)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and f"{src}:5:" in err and "not by a block" in err


def test_a_loop_the_run_does_not_reach_is_said_so(tmp_path, monkeypatch, capsys):
    """A loop the program skips with the arguments given (a step that returns once
    converged) measures 0 s: tune says it did not run and how to reach it, not that the
    original could not be measured; with arguments that reach it, it is measured."""
    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("AUTOTUNE_DB", str(tmp_path / "results.db"))
    src = os.path.join(os.path.dirname(__file__), "data", "c", "legality", "converged_return.c")
    decisions = []
    for args in ([], ["--args", "again"]):
        assert main(["tune", src, "--repetitions", "1", "--json", "-q", "--allow-busy", *args]) == 0
        loops = json.loads(capsys.readouterr().out)["files"][0]["loops"]
        tuned = [lp["decision"] for lp in loops if not lp["decision"].startswith("not tuned")]
        assert len(tuned) == 1  # the update loop, the one the gate lets vary
        decisions.append(tuned[0])
    assert decisions[0].startswith("the loop did not run") and "--args" in decisions[0]
    assert "did not run" not in decisions[1] and "could not be measured" not in decisions[1]

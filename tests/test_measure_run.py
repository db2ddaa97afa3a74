"""One run of a real binary: statuses, side-channel timing, killing on timeout."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from autotune.measure.build import build
from autotune.measure.run import parse_timing, run_program


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path / "cache"))


def _exe(tmp_path: Path, body: str, name: str = "p"):
    src = tmp_path / f"{name}.c"
    src.write_text(
        "#include <stdio.h>\n#include <stdlib.h>\n#include <unistd.h>\n#include <signal.h>\n" + body
    )
    res = build(src.read_text(), source_path=src, name_hint=name)
    assert res.ok, res.message
    return res.exe_path


TIMED = r"""
int main(void)
{
    const char *f = getenv("AUTOTUNE_TIMING_FILE");
    printf("out %d\n", 5);
    fprintf(stderr, "err\n");
    if (f) {
        FILE *fp = fopen(f, "a");
        fprintf(fp, "autotune-timing\tL:1\t0.25\t0.5\t2\n");
        fprintf(fp, "autotune-timing\tL:1\t0.5\t1.0\t1\n");
        fprintf(fp, "autotune-timing\tother:9\t3.0\t3.0\t1\n");
        fclose(fp);
    }
    return 0;
}
"""


def test_ok_run_reads_the_timing_side_channel(tmp_path, monkeypatch):
    monkeypatch.setenv("AUTOTUNE_TIMING_FILE", "/nonexistent/inherited")  # must be replaced
    res = run_program(_exe(tmp_path, TIMED), timeout_s=30, loop_id="L:1")
    assert res.status == "ok", res.message
    assert (res.stdout, res.stderr) == ("out 5\n", "err\n")
    assert res.loop_wall_s == pytest.approx(0.75) and res.loop_cpu_s == pytest.approx(1.5)
    assert res.executions == 3 and set(res.timings) == {"L:1", "other:9"}
    assert res.wall_s > 0


def test_missing_timing_is_reported_not_fatal(tmp_path):
    res = run_program(_exe(tmp_path, "int main(void){return 0;}\n"), loop_id="x:1")
    assert res.status == "ok" and res.loop_wall_s is None
    assert "no timing" in res.message


def test_segfault_and_exit_status_are_crashes(tmp_path):
    seg = run_program(
        _exe(
            tmp_path,
            'int main(void){fprintf(stderr, "boom\\n");volatile int *p = 0; *p = 1; return 0;}\n',
            "seg",
        )
    )
    assert seg.status == "crash" and "SIGSEGV" in seg.message and "boom" in seg.message
    ex = run_program(_exe(tmp_path, "int main(void){return 3;}\n", "ex"))
    assert ex.status == "crash" and ex.returncode == 3 and "exit status 3" in ex.message


HANG = r"""
int main(int argc, char **argv)
{
    FILE *fp = fopen(argv[1], "w");
    pid_t child = fork();
    if (child == 0) { for (;;) pause(); }
    fprintf(fp, "%d\n", (int)child);
    fclose(fp);
    for (;;) pause();
}
"""


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"  # a zombie is dead


def test_timeout_kills_the_whole_process_group(tmp_path):
    pidfile = tmp_path / "child.pid"
    res = run_program(_exe(tmp_path, HANG, "hang"), timeout_s=0.5, args=[str(pidfile)])
    assert res.status == "timeout" and "0.5" in res.message
    child = int(pidfile.read_text())
    deadline = time.monotonic() + 5
    while _alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(child)


def test_parse_timing_ignores_foreign_lines():
    text = "garbage\nautotune-timing\ta\t1e-3\t2e-3\t4\nautotune-timing\ta\tx\t1\t1\n"
    t = parse_timing(text)
    assert list(t) == ["a"] and t["a"].wall_s == pytest.approx(1e-3) and t["a"].executions == 4

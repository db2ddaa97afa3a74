"""The build hook's resident process (``server = true``): a build's new sources are
decided by it, with the same decisions as the wrapper makes alone, and the server
leaves when idle (nothing lingers after a build)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from buildhook_support import copy_project, hook_env, run, warnings_in, wrapper_exe

from autotune.buildhook.report import SourceDecision

pytestmark = pytest.mark.slow  # a resident server and real builds: the long suite (-m slow)


def _decisions(db: Path) -> list[dict]:
    import json

    log = db.with_suffix(".builds.jsonl")
    return [s for ln in log.read_text().splitlines() for s in json.loads(ln)["sources"]]


def _wait(predicate, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.1)
    return predicate()


def _same(d: dict) -> tuple:  # what was decided, not how
    keep = ("source", "used", "reason")
    loops = [(ld["loop_id"], ld["used"], ld["variant"], ld["reason"]) for ld in d["loops"]]
    return (*(d[k] for k in keep), loops)


def test_the_server_decides_new_sources_as_the_wrapper_would(tmp_path):
    proj = copy_project("two_files", tmp_path)
    argv = ["-fopenmp", "-O2", "-c"]
    (tmp_path / "alone").mkdir()
    alone_env = hook_env(tmp_path / "alone", AUTOTUNE_MODE="rank")
    for src in ("main.c", "fill.c"):
        run([wrapper_exe(), "gcc", *argv, src, "-o", f"{src}.alone.o"], proj, alone_env)
    alone = {d["source"]: _same(d) for d in _decisions(Path(alone_env["AUTOTUNE_DB"]))}

    env = hook_env(tmp_path, AUTOTUNE_MODE="rank", AUTOTUNE_SERVER="1", AUTOTUNE_SERVER_IDLE="3")
    state = run([wrapper_exe(), "--server-status"], proj, env).stdout.strip()
    assert state.endswith(": not running")
    sock = Path(state.rsplit(": ", 1)[0])
    first = run([wrapper_exe(), "gcc", *argv, "main.c", "-o", "main.o"], proj, env)
    assert warnings_in(first.stderr) == []
    assert _wait(sock.exists, 60), "the first compile started no server"
    assert run([wrapper_exe(), "--server-status"], proj, env).stdout.strip().endswith("running")
    second = run([wrapper_exe(), "gcc", *argv, "fill.c", "-o", "fill.o"], proj, env)
    assert warnings_in(second.stderr) == []
    got = _decisions(Path(env["AUTOTUNE_DB"]))
    assert [d["served"] for d in got] == [False, True]  # started, then asked
    assert {d["source"]: _same(d) for d in got} == alone
    run(["gcc", "-fopenmp", "main.o", "fill.o", "-o", "prog"], proj)
    run(["gcc", "-fopenmp", "-O2", "main.c", "fill.c", "-o", "plain"], proj)
    assert run(["./prog"], proj).stdout == run(["./plain"], proj).stdout
    assert SourceDecision.from_dict(got[1]).served
    assert _wait(lambda: not sock.exists(), 30), "the server did not leave when idle"


def test_a_server_is_stopped_on_request_and_none_starts_without_the_setting(tmp_path):
    proj = copy_project("two_files", tmp_path)
    env = hook_env(tmp_path, AUTOTUNE_MODE="rank", AUTOTUNE_SERVER="1")
    sock = Path(run([wrapper_exe(), "--server-status"], proj, env).stdout.rsplit(": ", 1)[0])
    run([wrapper_exe(), "gcc", "-fopenmp", "-O2", "-c", "main.c", "-o", "main.o"], proj, env)
    assert _wait(sock.exists, 60)
    assert run([wrapper_exe(), "--stop-server"], proj, env).stdout.strip() == "stopped"
    assert _wait(lambda: not sock.exists(), 60)
    off = dict(env, AUTOTUNE_SERVER="0")
    run([wrapper_exe(), "gcc", "-fopenmp", "-O2", "-c", "fill.c", "-o", "fill.o"], proj, off)
    time.sleep(1)
    assert not sock.exists()
    assert [d["served"] for d in _decisions(Path(env["AUTOTUNE_DB"]))] == [False, False]


def test_a_server_that_cannot_start_is_not_started_by_every_compile(tmp_path, monkeypatch):
    """Where no server can run, one start is tried per 30 s, not one per compile."""
    from autotune.buildhook import server_client

    started = []
    monkeypatch.setattr(server_client, "start_server", started.append)
    path = str(tmp_path / "x.sock")  # nothing listens there
    for _ in range(3):
        assert server_client.ask(path, {"argv": []}) is None  # decided in-process
    assert started == [path]
    old = os.stat(path + ".started").st_mtime - server_client.RESTART_AFTER_S - 1
    os.utime(path + ".started", (old, old))
    assert server_client.ask(path, {"argv": []}) is None
    assert started == [path, path]

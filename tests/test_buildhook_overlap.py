"""The early compile: while a new source is decided, the command as written compiles
beside the decision. When the original is what ships, its object, status and
diagnostics are the compile's; when a variant ships, it is stopped before the tuned
compile writes the same files; an interrupted compile leaves nothing running."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

from buildhook_support import hook_env, run, save_choices, wrapper_exe

from autotune.measure.store import Store

# A STREAM-style triad with a variable its author forgot: -Wall warns once per compile.
TRIAD = """\
#include <stdio.h>
#define N 200000
static double a[N], b[N], c[N];

int main(void)
{
    int unused;
    for (int j = 0; j < N; j++) { b[j] = 2.0; c[j] = 0.5 * j; }
#pragma omp parallel for
    for (int j = 0; j < N; j++)
        a[j] = b[j] + 3.0 * c[j];
    printf("%.1f\\n", a[N - 1]);
    return 0;
}
"""
FLAGS = ["-fopenmp", "-O2", "-Wall", "-c", "triad.c"]


def _records(env: dict[str, str]) -> list[dict]:
    log = Path(env["AUTOTUNE_DB"]).with_suffix(".builds.jsonl")
    return [json.loads(ln) for ln in log.read_text().splitlines()]


def _project(tmp_path: Path) -> Path:
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "triad.c").write_text(TRIAD)
    return proj


def _plain(proj: Path) -> subprocess.CompletedProcess:
    return run(["gcc", *FLAGS, "-o", "plain.o"], proj)


def test_an_original_decision_is_the_early_compile(tmp_path):
    proj = _project(tmp_path)
    plain = _plain(proj)
    assert plain.stderr.count("unused variable") == 1
    env = hook_env(tmp_path, AUTOTUNE_MODE="apply")
    with Store(env["AUTOTUNE_DB"]):
        pass  # a database without results: the source is decided, the original ships
    first = run([wrapper_exe(), "gcc", *FLAGS, "-o", "hook.o"], proj, env)
    assert first.stderr == plain.stderr  # the compiler's diagnostics, once, as printed
    assert (proj / "hook.o").read_bytes() == (proj / "plain.o").read_bytes()
    rec = _records(env)[-1]
    assert rec["sources"][0]["used"] == "original"
    assert rec["returncode"] == 0  # waited for: the early compile (an exec'd one is null)
    assert not os.listdir(env["TMPDIR"])

    off = dict(env, AUTOTUNE_OVERLAP="0", AUTOTUNE_CACHE_DIR=str(tmp_path / "cache2"))
    again = run([wrapper_exe(), "gcc", *FLAGS, "-o", "off.o"], proj, off)
    assert again.stderr == plain.stderr
    assert _records(env)[-1]["returncode"] is None  # the setting off: exec'd after deciding

    (proj / ".autotune.toml").write_text("overlap = false\n")  # the config file's key
    conf = dict(env, AUTOTUNE_CACHE_DIR=str(tmp_path / "cache3"))
    run([wrapper_exe(), "gcc", *FLAGS, "-o", "conf.o"], proj, conf)
    assert _records(env)[-1]["returncode"] is None


def test_a_shipped_variant_stops_the_early_compile(tmp_path):
    proj = _project(tmp_path)
    plain = _plain(proj)
    env = hook_env(tmp_path, AUTOTUNE_MODE="apply")
    save_choices(Path(env["AUTOTUNE_DB"]), proj / "triad.c", {}, "dynamic,64,t-")
    first = run([wrapper_exe(), "gcc", *FLAGS, "-o", "hook.o"], proj, env)
    assert first.stderr == plain.stderr  # the tuned compile's diagnostics only, once
    rec = _records(env)[-1]
    assert rec["sources"][0]["used"] == "tuned" and rec["returncode"] == 0
    assert (proj / "hook.o").read_bytes() != (proj / "plain.o").read_bytes()
    run(["gcc", "-fopenmp", "hook.o", "-o", "hook"], proj)
    run(["gcc", "-fopenmp", "plain.o", "-o", "plain"], proj)
    assert run(["./hook"], proj).stdout == run(["./plain"], proj).stdout
    assert not os.listdir(env["TMPDIR"])


def _compilers_of(source: Path, compiling: bool = False) -> list[int]:
    """Processes (gcc, cc1) whose command line names ``source``; with ``compiling``,
    only a cc1 that compiles it (not the decision's preprocessing, ``cc1 -E``)."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        name = os.path.basename(cmdline[0]) if cmdline else b""
        if name in (b"gcc", b"cc1") and str(source).encode() in cmdline:
            if not compiling or (name == b"cc1" and b"-E" not in cmdline):
                found.append(int(pid))
    return found


def _default_sigterm() -> None:
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def test_termination_stops_the_early_compile(tmp_path):
    """A large file: the early compile runs for seconds while its 200 loops are decided;
    SIGTERM (``timeout``, a killed build) leaves no compiler behind and no object."""
    proj = tmp_path / "proj"
    proj.mkdir()
    body = ["#include <math.h>", "double a[1000], b[1000];"]
    for f in range(200):
        body.append(
            f"void f{f}(int n)\n{{\n#pragma omp parallel for\n"
            f"    for (int i = 0; i < n; i++)\n        a[i] = sin(b[i] * {f}.0) + cos(a[i]);\n}}"
        )
    src = proj / "many.c"
    src.write_text("\n".join(body) + "\n")
    env = hook_env(tmp_path, AUTOTUNE_MODE="rank")
    argv = [wrapper_exe(), "gcc", "-fopenmp", "-O3", "-c", str(src), "-o", "many.o"]
    # As a build tool's own child would get it: a shell, CI runner or ``nohup`` may hand
    # the test an ignored SIGTERM, which the wrapper rightly keeps ignoring.
    proc = subprocess.Popen(
        argv, cwd=proj, env=env, stderr=subprocess.PIPE, preexec_fn=_default_sigterm
    )
    end = time.monotonic() + 60
    while not _compilers_of(src, compiling=True) and proc.poll() is None:
        assert time.monotonic() < end, "no early compile started"
        time.sleep(0.01)
    assert proc.poll() is None, "the compile ended before it could be interrupted"
    assert not (proj / "many.o").exists()
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode != 0, err.decode(errors="replace")[-2000:]  # what swallowed it
    end = time.monotonic() + 5
    while _compilers_of(src) and time.monotonic() < end:
        time.sleep(0.05)
    assert _compilers_of(src) == []
    assert not (proj / "many.o").exists()

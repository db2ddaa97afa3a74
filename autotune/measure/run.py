"""Run one binary once: own process group, hard timeout, loop time from the side channel.

Each run gets its own session (process group) so that a timeout or an
interrupt kills the program and everything it started, and a hung variant is
never waited on. The loop's own time comes from the timing file the
instrumentation appends to at exit (see docs/timing.md); the
program's stdout/stderr are left untouched for verification.
"""

from __future__ import annotations

import os
import signal
import subprocess
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from autotune.measure import outfiles
from autotune.measure.scratch import die_with_parent, scratch_dir

TIMING_ENV = "AUTOTUNE_TIMING_FILE"
_SCRUBBED = (TIMING_ENV, "AUTOTUNE_NUM_THREADS")  # never inherit another run's settings
TIMING_TAG = "autotune-timing"


@dataclass
class LoopTiming:
    wall_s: float
    cpu_s: float
    executions: int


@dataclass
class RunResult:
    status: str  # ok | crash | timeout
    wall_s: float  # whole process
    loop_wall_s: float | None  # from the side channel; None when the loop wrote nothing
    loop_cpu_s: float | None
    stdout: str
    stderr: str
    returncode: int | None
    message: str
    executions: int | None = None
    timings: dict[str, LoopTiming] = field(default_factory=dict)  # every loop reported


def parse_timing(text: str) -> dict[str, LoopTiming]:
    """Sum the side-channel lines per loop id (a loop id may appear more than once)."""
    out: dict[str, LoopTiming] = {}
    for line in text.splitlines():
        parts = line.rstrip("\n").split("\t")
        if len(parts) != 5 or parts[0] != TIMING_TAG:
            continue
        try:
            wall, cpu, n = float(parts[2]), float(parts[3]), int(float(parts[4]))
        except ValueError:
            continue
        prev = out.get(parts[1])
        if prev is None:
            out[parts[1]] = LoopTiming(wall, cpu, n)
        else:
            prev.wall_s += wall
            prev.cpu_s += cpu
            prev.executions += n
    return out


def openmp_settings() -> dict[str, str]:
    """The OpenMP settings the measured programs inherit from this process (OMP_*,
    GOMP_*): they decide a region's team as written (``OMP_NUM_THREADS``), a runtime
    schedule, where threads sit and how they wait. A run or a profile made under other
    settings is another run, not one to reuse."""
    return {k: v for k, v in sorted(os.environ.items()) if k.startswith(("OMP_", "GOMP_"))}


def run_environment(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment of a measured run. AUTOTUNE_WARMUP=1 asks the instrumented
    program to start its OpenMP threads before main (see templates/epilogue.c.j2),
    so no variant's loop time includes creating them."""
    env = {k: v for k, v in os.environ.items() if k not in _SCRUBBED}
    env["AUTOTUNE_WARMUP"] = "1"
    env.update(extra or {})
    return env


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _decode(b: bytes | None) -> str:
    return (b or b"").decode("utf-8", "replace")


def _last_line(text: str) -> str:
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    return lines[-1][:200] if lines else ""


# Over 60 lines: one subprocess's life: start, wait or kill its group, collect; the steps are calls.
def run_program(
    exe: str | Path,
    *,
    env: Mapping[str, str] | None = None,
    timeout_s: float = 300.0,
    cwd: str | Path | None = None,
    timing_file: str | Path | None = None,
    loop_id: str | None = None,
    args: Sequence[str] = (),
    stdin: str | Path | None = None,
    expect_status: int = 0,
    check_files: Sequence[str] = (),
) -> RunResult:
    """Run ``exe args`` once with ``env`` added to the scrubbed environment.

    ``timing_file``: where the instrumentation appends; None = a fresh unique
    temp file, removed afterwards. ``loop_id`` selects the loop whose time is
    reported (None: the only loop in the file, if exactly one). ``expect_status``: the
    exit status of a good run (a program that exits 1 by design), any other is a failure.
    ``check_files``: result files the run writes, appended to its stdout for verification.
    """
    own_file = timing_file is None
    if own_file:
        fd, name = tempfile.mkstemp(prefix="timing-", suffix=".txt", dir=scratch_dir())
        os.close(fd)
        timing_path = Path(name)
    else:
        timing_path = Path(timing_file)
    full_env = run_environment(env)
    full_env[TIMING_ENV] = str(timing_path)
    files_before = outfiles.snapshot(check_files, cwd)
    start = time.perf_counter()
    try:
        source = open(stdin, "rb") if stdin is not None else None
    except OSError as exc:
        _cleanup(timing_path, own_file)
        why = f"cannot read the standard input {stdin}: {exc.strerror}"
        return RunResult("crash", 0.0, None, None, "", "", None, why)
    try:
        proc = subprocess.Popen(
            [str(exe), *args],
            stdin=source if source is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=full_env,
            cwd=cwd,
            start_new_session=True,
            preexec_fn=die_with_parent(),
        )
    except OSError as exc:
        _cleanup(timing_path, own_file)
        if source is not None:
            source.close()
        return RunResult("crash", 0.0, None, None, "", "", None, f"cannot start: {exc}")
    try:
        out, err, timed_out = _communicate(proc, timeout_s)
    except BaseException:
        _cleanup(timing_path, own_file)
        raise
    wall = time.perf_counter() - start
    if source is not None:
        source.close()
    _kill_group(proc)  # stray children of a finished program
    try:
        timings = parse_timing(timing_path.read_text(errors="replace"))
    except OSError:
        timings = {}
    _cleanup(timing_path, own_file)
    stdout, stderr, rc = _decode(out), _decode(err), proc.returncode
    if check_files:
        stdout += outfiles.written_text(check_files, cwd, files_before)
    status, message = _outcome(rc, timed_out, timeout_s, stderr, expect_status)
    timing = (
        timings.get(loop_id)
        if loop_id is not None
        else (next(iter(timings.values())) if len(timings) == 1 else None)
    )
    if status == "ok" and timing is None and loop_id is not None:
        message = f"no timing reported for loop {loop_id}"
    return RunResult(
        status,
        wall,
        timing.wall_s if timing else None,
        timing.cpu_s if timing else None,
        stdout,
        stderr,
        rc,
        message,
        timing.executions if timing else None,
        timings,
    )


def _communicate(proc: subprocess.Popen, timeout_s: float) -> tuple[bytes, bytes, bool]:
    """(stdout, stderr, timed out): the program's whole group is killed on a timeout."""
    try:
        try:
            out, err = proc.communicate(timeout=timeout_s)
            return out, err, False
        except subprocess.TimeoutExpired:
            _kill_group(proc)
            out, err = proc.communicate()
            return out, err, True
    except BaseException:  # interrupt: leave no orphan behind
        _kill_group(proc)
        proc.wait()
        raise


def _outcome(
    rc: int | None, timed_out: bool, timeout_s: float, stderr: str, expect: int = 0
) -> tuple[str, str]:
    """(status, message) of a finished run: ok, timeout or crash (with the last stderr line)."""
    if timed_out:
        return "timeout", f"stopped after {timeout_s:.3g} s"
    if rc is not None and rc < 0:
        try:
            sig = signal.Signals(-rc).name
        except ValueError:
            sig = f"signal {-rc}"
        status, message = "crash", f"killed by {sig}"
    elif rc != expect:
        status, message = "crash", f"exit status {rc}" + (f", expected {expect}" if expect else "")
    else:
        return "ok", ""
    last = _last_line(stderr)
    return status, message + (f": {last}" if last else "")


def _cleanup(path: Path, own: bool) -> None:
    if own:
        try:
            path.unlink()
        except OSError:
            pass

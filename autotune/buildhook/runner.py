"""Run the real compiler: the original command, or one with tuned sources swapped in.

A tuned text is written as ``<unique dir>/<n>/<same base name as the user's
file>`` so that everything the driver derives from the input's name (the
default ``-c`` object ``a.o``, the default ``-MD`` file ``a.d``, the default
dependency target) comes out exactly as for the original. What the move
would change is put back: ``-iquote <the file's directory>`` (first, so the
quote-include search order is the original's), ``-fdebug-prefix-map`` (the
object's DW_AT_name), ``#line 1`` (diagnostics, ``__FILE__``, line table),
and the dependency file's first prerequisite.
"""

from __future__ import annotations

import os
import sys
import time

from autotune.buildhook import depfile
from autotune.buildhook.cmdline import Command, Source, quote_response_arg

_GNU_LIKE = ("gcc", "clang", "cc", "icx", "icc")


def spawn(argv: list[str], capture: str | None = None) -> int:
    """Run ``argv``; with ``capture``, its stdout/stderr go to ``capture``.out/.err.

    ``os.posix_spawnp`` rather than ``subprocess``, whose import alone costs
    a warm compile a noticeable share of its time. A signal maps to 128+N.
    """
    pid = start(argv, capture)
    return 127 if pid is None else wait(pid)


def start(
    argv: list[str], capture: str | None = None, own_group: bool = False, say: bool = True
) -> int | None:
    """``spawn`` without the wait: the child's pid, or None (after saying why, unless
    ``say`` is off: the early compile's failure to start is reported by the exec after)."""
    actions = []
    if capture is not None:
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
        actions = [
            (os.POSIX_SPAWN_OPEN, 1, capture + ".out", flags, 0o600),
            (os.POSIX_SPAWN_OPEN, 2, capture + ".err", flags, 0o600),
        ]
    sys.stdout.flush()
    sys.stderr.flush()
    group = {"setpgroup": 0} if own_group else {}
    try:
        return os.posix_spawnp(argv[0], argv, os.environ, file_actions=actions, **group)
    except (OSError, ValueError) as exc:
        if say:
            why = getattr(exc, "strerror", None) or exc
            os.write(2, f"autotune-cc: cannot run {argv[0]!r}: {why}\n".encode("utf-8", "replace"))
        return None


def wait(pid: int) -> int:
    """The exit status of child ``pid``; a signal maps to 128+N."""
    status = os.waitpid(pid, 0)[1]
    if os.WIFSIGNALED(status):
        return 128 + os.WTERMSIG(status)
    return os.WEXITSTATUS(status)


class EarlyCompile:
    """The command exactly as written, started when a source's decision must be made.

    A first compile spends most of its time deciding (preprocess, parse, prove, rank)
    and, under the ship rule, most decisions are "compile the original". So the
    original compile runs beside the decision, its output kept aside: when the
    decision is the original, its status and output are the compile's (the wait is
    what the decision took beyond it); when a variant ships, it is stopped (its own
    process group: driver, cc1 and as alike) before the tuned compile writes the
    same files, so no stale object can land after it. Never for commands that read
    standard input or name more than one source.
    """

    def __init__(self, argv: list[str]) -> None:
        self.argv = argv
        self.pid: int | None = None
        self.tmp: str | None = None

    def start(self) -> None:
        if self.tmp is not None:
            return
        try:
            self.tmp = _unique_dir()
        except OSError:
            self.tmp = ""
            return
        _interrupt_on_termination()
        capture = os.path.join(self.tmp, "compiler")
        self.pid = start(self.argv, capture, own_group=True, say=False)

    @property
    def running(self) -> bool:
        return self.pid is not None

    def finish(self) -> int:
        """Wait for it and print what the compiler printed; its exit status."""
        if self.pid is None:
            return 127
        rc = wait(self.pid)  # interrupted here, it is still ours to stop (cancel)
        self.pid = None
        try:
            capture = os.path.join(self.tmp or "", "compiler")
            _echo(_read(capture + ".out"), _read(capture + ".err"))
            return rc
        finally:
            self._clean()

    def cancel(self) -> None:
        """Stop it and wait until it is gone (nothing it started writes afterwards)."""
        import signal  # not at the top: it imports enum, and a kept decision needs neither

        pid, self.pid = self.pid, None
        if pid is not None:
            try:
                os.killpg(pid, signal.SIGTERM)
            except OSError:  # gone already
                pass
            try:
                os.waitpid(pid, 0)
            except OSError:  # reaped already
                pass
            _wait_group_gone(pid)
        self._clean()

    def _clean(self) -> None:
        if self.tmp:
            _remove_tree(self.tmp)


_SIGNALLED = [0]  # the termination signal received, if any


def _interrupted(signum: int, frame: object) -> None:
    _SIGNALLED[0] = signum
    raise KeyboardInterrupt


def signalled() -> int:
    """SIGTERM or SIGHUP received since the early compile started (0: none). The
    handler's KeyboardInterrupt can be lost where Python ignores exceptions (a
    destructor or a callback run during the analysis): the wrapper asks again before it
    lets the early compile's object stand."""
    return _SIGNALLED[0]


def _interrupt_on_termination() -> None:
    """SIGTERM and SIGHUP (``timeout``, a closed terminal) unwind like Ctrl-C, so the
    early compile, in a process group of its own, is stopped rather than left behind."""
    import signal

    for sig in (signal.SIGTERM, signal.SIGHUP):
        if signal.getsignal(sig) is signal.SIG_DFL:
            signal.signal(sig, _interrupted)


def _wait_group_gone(group: int, seconds: float = 5.0) -> None:
    """Until no process of ``group`` is left (cc1 may outlive the driver by a moment)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            os.killpg(group, 0)
        except OSError:
            return
        time.sleep(0.002)


def run_original(argv: list[str]) -> int:
    """The original compile as a child (when we still have something to say afterwards)."""
    return spawn(argv)


def _unique_dir() -> str:
    base = os.environ.get("TMPDIR") or "/tmp"
    for _ in range(100):
        path = os.path.join(base, f"autotune-cc-{os.getpid()}-{time.monotonic_ns() % 10**9}")
        try:
            os.mkdir(path, 0o700)
            return path
        except FileExistsError:
            continue
    raise OSError(f"cannot create a temporary directory in {base}")


def _echo(out: bytes, err: bytes) -> None:
    """What a captured compiler printed (warnings), as it printed it, on our streams."""
    for stream, data in ((sys.stdout, out), (sys.stderr, err)):
        if data:
            stream.buffer.write(data)
            stream.flush()


def _read(path: str) -> bytes:
    try:
        with open(path, "rb") as fh:
            return fh.read()
    except OSError:
        return b""


def _remove_tree(path: str) -> None:
    for root, dirs, files in os.walk(path, topdown=False):
        for name in files:
            try:
                os.unlink(os.path.join(root, name))
            except OSError:
                pass
        for name in dirs:
            try:
                os.rmdir(os.path.join(root, name))
            except OSError:
                pass
    try:
        os.rmdir(path)
    except OSError:
        pass


def _gnu_like(compiler: str) -> bool:
    name = os.path.basename(compiler)
    return any(k in name for k in _GNU_LIKE)


def tuned_argv(
    cmd: Command, tuned: list[tuple[Source, str]], tmp: str
) -> tuple[list[str], dict[str, str]]:
    """The compiler argv with tuned texts written under ``tmp``; and temp path -> original."""
    args = list(cmd.args)
    front: list[str] = []
    moved: dict[str, str] = {}
    for n, (src, text) in enumerate(tuned):
        sub = os.path.join(tmp, str(n))
        os.mkdir(sub)
        path = os.path.join(sub, os.path.basename(src.path))
        with open(path, "wb") as fh:
            fh.write(text.encode("utf-8", "surrogateescape"))
        args[src.index] = path
        moved[path] = src.path
        src_dir = os.path.dirname(src.path)
        if not front:  # the caller only tunes sources of one directory per command
            front = ["-iquote", src_dir or "."]
        if cmd.debug and _gnu_like(cmd.compiler):
            args.append(f"-fdebug-prefix-map={sub}/={src_dir + '/' if src_dir else ''}")
    args = front + args
    if cmd.used_response_file:
        rsp = os.path.join(tmp, "args.rsp")
        with open(rsp, "w", encoding="utf-8", errors="surrogateescape") as fh:
            fh.write("\n".join(quote_response_arg(a) for a in args) + "\n")
        return [*cmd.launcher, cmd.compiler, "@" + rsp], moved
    return [*cmd.launcher, cmd.compiler, *args], moved


def dep_file_candidates(cmd: Command, tuned: list[tuple[Source, str]]) -> list[str]:
    out = list(cmd.dep_files)
    if cmd.makes_deps:
        if cmd.output:
            out.append(os.path.splitext(cmd.output)[0] + ".d")
        for src, _ in tuned:
            out.append(os.path.splitext(os.path.basename(src.path))[0] + ".d")
    return list(dict.fromkeys(out))


def run_tuned(cmd: Command, tuned: list[tuple[Source, str]]) -> tuple[int, str]:
    """Compile with the tuned texts; (status, first error line or '')."""
    tmp = _unique_dir()
    try:
        argv, moved = tuned_argv(cmd, tuned, tmp)
        capture = os.path.join(tmp, "compiler")
        start = time.time()
        rc = spawn(argv, capture)
        out, err = _read(capture + ".out"), _read(capture + ".err")
        if rc != 0:
            lines = err.decode("utf-8", "replace").strip().splitlines()
            first = next((ln for ln in lines if "error" in ln), lines[0] if lines else "")
            return rc, first or f"exit status {rc}"
        depfile.fix_files(dep_file_candidates(cmd, tuned), moved, start)
        _echo(out, err)
        return 0, ""
    finally:
        _remove_tree(tmp)

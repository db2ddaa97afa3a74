"""``autotune-cc``: a compiler launcher that compiles tuned OpenMP variants.

Used as ``CC="autotune-cc gcc"`` or as CMake's ``C_COMPILER_LAUNCHER``. The
one rule above all others: it never breaks a build. Everything autotune does
runs inside one ``try``; on any failure the real compiler is exec'd with the
exact original arguments, after one warning line on stderr
(``AUTOTUNE_QUIET=1`` silences it), so the exit status is the compiler's.
"""

from __future__ import annotations

import os
import sys

USAGE = """usage: autotune-cc COMPILER [ARGS...]     e.g. make CC="autotune-cc gcc"
       autotune-cc --cmake-dir               directory of autotune.cmake / autotune.mk
       autotune-cc --launcher                a faster equivalent of 'autotune-cc', one
                                             word per line; in a shell:
                                             make CC="$(autotune-cc --launcher | tr '\\n' ' ')gcc"
       autotune-cc --shim-dir                a directory holding that faster one under the
                                             name autotune-cc (autotune.mk puts it first
                                             on PATH, so make echoes 'autotune-cc gcc ...')
       autotune-cc --server-status           where this user's resident process listens
       autotune-cc --stop-server             stop it now (it also leaves when idle)
       autotune-cc --version

Compiles each C source with the tuned OpenMP variants stored by 'autotune tune'
(or the original when there are none). Settings: AUTOTUNE_MODE=apply|rank|tune|off,
AUTOTUNE_DB, AUTOTUNE_QUIET=1, AUTOTUNE_SERVER=1 (decide new sources in a resident
process that keeps autotune loaded; AUTOTUNE_SERVER_IDLE seconds before it leaves,
default 600), AUTOTUNE_OVERLAP=0 (do not compile a new source as written while it is
decided), or a [build] section in .autotune.toml / autotune.cfg.
See 'autotune report-build' for what the last build compiled."""


class Plan:
    """What this compile will do, decided before the real compiler runs."""

    def __init__(self, mode: str, log: str, quiet: bool, cmd, decisions=None) -> None:
        self.mode = mode
        self.log = log
        self.quiet = quiet
        self.cmd = cmd  # cmdline.Command
        self.decisions = list(decisions or [])  # report.SourceDecision
        self.tuned: list = []  # (cmdline.Source, tuned text)


def cmake_dir() -> str:
    return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "cmake")


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    while len(args) > 1 and args[0] == "":  # an empty element of a CMake launcher list
        args.pop(0)
    if not args or args[0] in ("-h", "--help"):
        print(USAGE, file=sys.stdout if args else sys.stderr)
        return 0 if args else 2
    if args[0] == "--cmake-dir":
        print(cmake_dir())
        return 0
    if args[0] == "--launcher":
        print("\n".join(_launch_argv()))
        return 0
    if args[0] == "--shim-dir":
        return _print_shim_dir()
    if args[0] in ("--server-status", "--stop-server"):
        from autotune.buildhook import cache, server_client

        path = server_client.socket_path(cache.cache_root())
        if args[0] == "--stop-server":
            print("stopped" if server_client.stop(path) else "no server was running")
        else:
            print(server_client.status(path))
        return 0
    if args[0] == "--version":
        from autotune import __version__

        print(f"autotune-cc {__version__}")
        return 0
    if args[0].startswith("-"):
        print(
            f"autotune-cc: {args[0]}: the first argument must be the compiler "
            '(e.g. CC="autotune-cc gcc")',
            file=sys.stderr,
        )
        return 2
    try:
        return compile_command(args)
    except KeyboardInterrupt:  # the build was interrupted: no traceback, like a compiler
        return 130


def _launch_argv() -> list[str]:
    return [
        sys.executable,
        "-S",
        os.path.join(os.path.dirname(os.path.abspath(__file__)), "launch.py"),
    ]


def _print_shim_dir() -> int:
    """Write ``<cache>/bin/autotune-cc``, a shell script that starts the launcher, where
    it is missing or names another interpreter; print its directory (exit 1, nothing
    printed, where it cannot be written: autotune.mk then uses the launcher itself)."""
    import shlex
    import tempfile

    from autotune.buildhook.config import cache_dir

    folder = os.path.join(cache_dir(), "bin")
    path = os.path.join(folder, "autotune-cc")
    text = "#!/bin/sh\nexec " + " ".join(shlex.quote(a) for a in _launch_argv()) + ' "$@"\n'
    try:
        with open(path, encoding="utf-8") as fh:
            current = fh.read()
    except OSError:
        current = None
    if current != text:
        try:
            os.makedirs(folder, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=folder, prefix=".autotune-cc.")
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(text)
            os.chmod(tmp, 0o755)
            os.replace(tmp, path)  # atomically: a parallel make may be starting it
        except OSError as exc:
            print(f"autotune-cc: cannot write {path}: {exc.strerror}", file=sys.stderr)
            return 1
    print(folder)
    return 0


def compile_command(argv: list[str]) -> int:
    """Run one compiler invocation ``argv`` = [compiler, *args]; the compiler's status."""
    from autotune.buildhook.runner import EarlyCompile

    early = EarlyCompile(argv)
    try:
        return _compile(argv, early)
    finally:
        early.cancel()  # only an interrupted compile still has one running here


def _compile(argv: list[str], early) -> int:  # runner.EarlyCompile
    try:
        plan = make_plan(argv, early)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # never break a build
        _stop_if_signalled(early)
        _failed(argv, exc)
        return early.finish() if early.running else _exec(argv)
    if plan is None:
        return _exec(argv)
    _stop_if_signalled(early)
    warnings = [d for d in plan.decisions if d.warning]
    if warnings:
        _warn(plan.quiet, warnings[0].reason, [d.source for d in warnings])
    if not plan.tuned and early.running:  # the compile as written, already under way
        rc = early.finish()
        _log(plan, argv, rc)
        return rc
    if not plan.tuned:
        _log(plan, argv, None)
        return _exec(argv)
    early.cancel()  # before the tuned compile writes the same files
    from autotune.buildhook.runner import run_original, run_tuned

    try:
        rc, error = run_tuned(plan.cmd, plan.tuned)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:
        rc, error = -1, f"{type(exc).__name__}: {exc}"
    if rc == 0:
        _log(plan, argv, 0)
        return 0
    # The tuned compile failed: compile the original; if that works, it was our fault.
    status = run_original(argv)
    for d in plan.decisions:
        if d.used == "tuned":
            d.used, d.warning = "original", status == 0
            d.reason = (
                f"the tuned compile failed ({error}); compiled the original"
                if status == 0
                else "the compile fails with the original source too"
            )
            for ld in d.loops:
                ld.used = "original"
    if status == 0:
        _warn(plan.quiet, f"the tuned compile failed ({error})", [s.path for s, _ in plan.tuned])
    _log(plan, argv, status)
    return status


def _stop_if_signalled(early) -> None:  # runner.EarlyCompile
    """SIGTERM or SIGHUP came while deciding, its KeyboardInterrupt swallowed on the way
    (a destructor, a library callback): stop as the interrupt would have."""
    if early.running:
        from autotune.buildhook.runner import signalled

        if signalled():
            raise KeyboardInterrupt


def make_plan(argv: list[str], early=None) -> Plan | None:  # runner.EarlyCompile
    """Decide every source of the command; None when there is nothing to do at all.
    ``early`` is started when a decision must be computed (apply and rank modes, one
    source, standard input not read, the ``overlap`` setting on)."""
    from autotune.buildhook.cmdline import parse_command
    from autotune.buildhook.config import db_path, load_config, log_path
    from autotune.buildhook.report import SourceDecision

    cfg = load_config()
    for line in cfg.ignored:  # another user's config is never read: said once a build
        if not cfg.quiet and _first_in_build(line):
            _stderr_line(f"autotune-cc: warning: {line}")
    if cfg.mode == "off":
        return None
    cmd = parse_command(argv)
    if cfg.mode == "tune" and not cmd.sources:
        _tune_at_link(cfg, cmd)
    if not cmd.sources:
        return None  # links, assembly, C++, -v: nothing of ours
    plan = Plan(cfg.mode, log_path(cfg), cfg.quiet, cmd)
    reason = cmd.passthrough_reason()
    if reason:
        plan.decisions = [
            SourceDecision(s.path, os.path.abspath(s.path), reason=reason) for s in cmd.sources
        ]
        return plan
    from autotune.buildhook.lookup import Context, decide

    ctx = Context(cfg, db_path(cfg), cmd.compiler, log_path(cfg))
    overlap = cfg.overlap and cfg.mode in ("apply", "rank") and len(cmd.sources) == 1
    before_slow = early.start if early is not None and overlap and not cmd.reads_stdin else None
    try:
        tuned_dir = None
        for src in cmd.sources:
            dec, text = decide(cmd, src, ctx, before_slow)
            if text is not None:
                here = os.path.dirname(os.path.abspath(src.path))
                tuned_dir = tuned_dir or here
                if here != tuned_dir:  # one -iquote per command keeps the include order exact
                    dec.used, text = "original", None
                    dec.reason = "another tuned source of this command is in another directory"
                    for ld in dec.loops:
                        ld.used = "original"
            if text is not None:
                plan.tuned.append((src, text))
            plan.decisions.append(dec)
    finally:
        ctx.close()
    return plan


def _tune_at_link(cfg, cmd) -> None:  # HookConfig, Command
    from autotune.buildhook.config import db_path, log_path
    from autotune.buildhook.lookup import Context
    from autotune.buildhook.tunemode import is_link, tune_at_link

    if not is_link(cmd):
        return
    ctx = Context(cfg, db_path(cfg), cmd.compiler, log_path(cfg))
    try:
        kept = tune_at_link(cmd, ctx)
    finally:
        ctx.close()
    for rec, dec in kept:
        _log_compile(rec, log_path(cfg), dec)
    failed = [dec for _, dec in kept if dec.warning]
    if failed:
        _warn(cfg.quiet, failed[0].reason, [d.source for d in failed])


def _exec(argv: list[str]) -> int:
    """Replace this process with the real compiler and the exact original arguments."""
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        os.execvp(argv[0], argv)
    except (OSError, ValueError) as exc:
        _stderr_line(
            f"autotune-cc: cannot run {argv[0]!r}: {getattr(exc, 'strerror', None) or exc}"
        )
    return 127


def _warn(quiet: bool, reason: str, sources: list[str]) -> None:
    if quiet or not _first_in_build(reason):
        return
    what = ", ".join(sources[:3]) + (f" (+{len(sources) - 3} more)" if len(sources) > 3 else "")
    line = f"autotune-cc: warning: {reason}; compiling {what or 'it'} unchanged"
    _stderr_line(line.replace("\n", " "))


_BUILD_TOOLS = (b"make", b"gmake", b"ninja", b"samu", b"cmake", b"ctest")


def _proc_stat(pid: int) -> tuple[bytes, int, str] | None:
    """(command name, parent pid, start time) of a process, from /proc."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            data = fh.read()
        name = data[data.index(b"(") + 1 : data.rindex(b")")]
        rest = data.rsplit(b")", 1)[1].split()
        return name, int(rest[1]), rest[19].decode()
    except (OSError, ValueError, IndexError):
        return None


def _build_identity() -> str:
    """Which build this compile belongs to: AUTOTUNE_BUILD_ID, else the outermost make
    (or ninja) above this process, with its start time so a recycled pid is another
    build; without one, the parent process."""
    given = os.environ.get("AUTOTUNE_BUILD_ID")
    if given:
        return given
    pid, found = os.getppid(), f"parent-{os.getppid()}"
    for _ in range(12):
        stat = _proc_stat(pid)
        if stat is None or pid <= 1:
            break
        if stat[0] in _BUILD_TOOLS:
            found = f"{pid}-{stat[2]}"
        pid = stat[1]
    return found


def _first_in_build(reason: str) -> bool:
    """True for the first compile of a build to give this warning (one line per build:
    a missing database is the same news for every file of a ``make -j``)."""
    try:
        from autotune.buildhook import cache

        folder = os.path.join(cache.cache_root(), "warned")
        os.makedirs(folder, exist_ok=True)
        name = cache.digest("warning", _build_identity(), reason)
        fd = os.open(os.path.join(folder, name), os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        os.close(fd)
        return True
    except FileExistsError:
        return False
    except Exception:  # a warning is never worth breaking the build
        return True


def _stderr_line(line: str) -> None:
    """One write per line: under ``make -j`` lines of parallel compiles must not mix."""
    sys.stderr.flush()
    try:
        os.write(2, (line + "\n").encode("utf-8", "replace"))
    except OSError:
        pass


def _log(plan: Plan, argv: list[str], returncode: int | None) -> None:
    """Best effort: the decision log must never be the reason a compile fails."""
    try:
        from autotune.buildhook.report import append_record, make_record

        append_record(
            plan.log,
            make_record(
                plan.decisions,
                mode=plan.mode,
                compiler=argv[0],
                output=plan.cmd.object_output,
                returncode=returncode,
                argv=argv,
                build=_build_identity(),
            ),
        )
    except Exception:
        pass


def _log_compile(rec: dict, log: str, dec) -> None:  # a SourceDecision
    """Record a new decision for an earlier compile (tune mode, after the link-time tuning)."""
    try:
        from autotune.buildhook.report import append_record

        append_record(
            log,
            {
                **rec,
                "time": __import__("time").time(),
                "pid": os.getpid(),
                "sources": [dec.to_dict()],
            },
        )
    except Exception:
        pass


def _failed(argv: list[str], exc: BaseException) -> None:
    """Warn about an internal failure and record it for report-build when possible."""
    reason = f"autotune failed: {type(exc).__name__}: {exc}"
    if type(exc).__name__ == "HookFailure":
        reason = str(exc)
    sources: list[str] = []
    quiet = os.environ.get("AUTOTUNE_QUIET", "").strip().lower() in ("1", "yes", "true", "on")
    cmd = cfg = None
    try:
        from autotune.buildhook.cmdline import parse_command

        cmd = parse_command(argv)
        sources = [s.path for s in cmd.sources]
        from autotune.buildhook.config import load_config

        cfg = load_config()
        quiet = cfg.quiet
    except Exception:  # the config itself may be what failed
        pass
    _warn(quiet, reason, sources)
    if cfg is None or not sources:
        return
    try:
        from autotune.buildhook.config import log_path
        from autotune.buildhook.report import SourceDecision

        plan = Plan(
            cfg.mode,
            log_path(cfg),
            quiet,
            cmd,
            decisions=[
                SourceDecision(s, os.path.abspath(s), reason=reason, warning=True) for s in sources
            ],
        )
        _log(plan, argv, None)
    except Exception:
        pass

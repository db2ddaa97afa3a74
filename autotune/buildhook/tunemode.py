"""``tune`` mode: run ``autotune tune`` on sources nobody tuned yet, then apply.

Meant for a dedicated tuning build. ``autotune tune`` measures whole
programs, so it needs every source of one: a compile-and-link command has
them all, but ``gcc -c a.c`` has one file and no ``main``. Such compiles are
compiled as in ``apply`` mode and tuned when the program is linked: the
link command names the objects, the decision log says which source and
flags produced each, so the untuned ones are tuned (the other sources as
``--extra-source``), recompiled through the wrapper, and then linked.

Measurements need a quiet machine, so tunings never overlap: a ``make -j``
build queues them behind one file lock. A source is tuned at most once per
content, defines, machine and database (a marker remembers a tuning that
stored nothing or failed).
"""

from __future__ import annotations

import fcntl
import os
import shlex
import subprocess
import sys
import time

from autotune.buildhook import cache
from autotune.buildhook.cmdline import Command, Source, parse_command
from autotune.buildhook.report import SourceDecision, read_log

_OBJECT_EXT = (".o", ".obj")


def tune_argv(
    cmd: Command,
    src: Source,
    ctx,
    extra_sources: list[str],
    ldflags: list[str],
) -> list[str]:
    """The ``autotune tune`` command for ``src``, with the flags it is compiled with."""
    base = list(ctx.cfg.tune_command) or [sys.executable, "-m", "autotune", "tune"]
    argv = [*base, src.path]
    for name, value in cmd.defines.items():
        argv += ["-D", f"{name}={value}"]
    for d in cmd.include_dirs:
        argv += ["-I", os.path.abspath(d)]
    flags = list(cmd.codegen_flags) + [f"-U{u}" for u in cmd.undefined]
    it = iter(cmd.cpp_flags)
    for flag in it:
        if flag in ("-include", "-imacros", "-idirafter", "-isystem", "-iquote"):
            flags += [flag, os.path.abspath(next(it, ""))]
        elif flag not in flags:
            flags.append(flag)
    if flags:  # "--cflags=-O3": a lone "-O3" after --cflags would read as an option
        argv.append(f"--cflags={shlex.join(flags)}")
    for extra in extra_sources:
        argv += ["--extra-source", os.path.abspath(extra)]
    if ldflags:
        argv.append(f"--ldflags={shlex.join(ldflags)}")
    if ctx.cfg.program_args is not None:  # the program's own arguments (sizes at run time)
        argv.append(f"--args={ctx.cfg.program_args}")
    argv += ["--cc", cmd.compiler, "--db", ctx.db, "--quiet", *ctx.cfg.tune_args]
    return argv


def tune_log_path(db: str) -> str:
    return os.path.splitext(db)[0] + ".tune.log"


def ensure_tuned(
    cmd: Command,
    src: Source,
    ctx,
    dec: SourceDecision,
    extra_sources: list[str],
    ldflags: list[str],
) -> str:
    """Tune ``src`` unless it has results; a note for the report ('' when nothing to say)."""

    if ctx.tuned_rows(dec.source_hash, dec.flags_key)[0]:
        return ""
    fp = ctx.machine()["fingerprint"]
    marker = os.path.join(
        ctx.root, "tune-tried", cache.digest(dec.source_hash, dec.flags_key, fp, ctx.db)
    )
    note = _tried(marker, ctx.db)
    if note:
        dec.for_now = _held_for_load(marker)
        return note
    os.makedirs(ctx.root, exist_ok=True)
    with open(os.path.join(ctx.root, "tune.lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one tuning at a time; others compile meanwhile
        try:
            ctx.refresh()
            if ctx.tuned_rows(dec.source_hash, dec.flags_key)[0]:
                return ""  # another compile of the same file tuned it while we waited
            note = _tried(marker, ctx.db)
            if not note:
                argv = tune_argv(cmd, src, ctx, extra_sources, ldflags)
                note = _run_tune(argv, ctx, dec, marker)
            dec.for_now = _held_for_load(marker)
            return note
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _tried(marker: str, db: str) -> str:
    doc = cache.read_entry(marker)
    if not doc or doc.get("db_inode") != cache.file_signature(db)[2:]:
        return ""
    when = time.ctime(doc.get("time", 0))
    if doc.get("returncode") == BUSY_EXIT:
        now = _busy_now()
        if not now:
            return ""  # quiet now: tune it again
        return (
            f"autotune tune held back its gain at {when}: the machine was busy "
            f"({doc.get('busy') or 'see the tune log'}); still busy ({now}): a later build "
            "tries again"
        )
    if doc.get("returncode") != 0:
        return f"autotune tune failed at {when} (delete {marker} to retry)"
    return f"tuned at {when}: no variant stored (original kept)"


def _run_tune(argv: list[str], ctx, dec: SourceDecision, marker: str) -> str:
    log = tune_log_path(ctx.db)
    env = dict(os.environ, AUTOTUNE_DB=ctx.db, AUTOTUNE_MODE="off")
    os.makedirs(os.path.dirname(os.path.abspath(log)), exist_ok=True)
    start = time.monotonic()
    _say(ctx, f"tuning {dec.source} (this can take minutes; the tune writes to {log})")
    with open(log, "ab") as fh:
        fh.write(f"\n== {time.ctime()} in {os.getcwd()}: {shlex.join(argv)}\n".encode())
        fh.flush()
        offset = fh.tell()
        try:
            rc = subprocess.run(
                argv,
                stdout=fh,
                stderr=subprocess.STDOUT,
                env=env,
                stdin=subprocess.DEVNULL,
                timeout=ctx.cfg.tune_timeout_s,
            ).returncode
        except subprocess.TimeoutExpired:
            rc = None
        except OSError as exc:
            fh.write(f"cannot run: {exc}\n".encode())
            rc = 127
    ctx.refresh()
    busy = _busy_said(log, offset) if rc == BUSY_EXIT else ""
    cache.write_entry(
        marker,
        {
            "time": time.time(),
            "returncode": rc,
            "busy": busy,
            "db_inode": cache.file_signature(ctx.db)[2:],
        },
    )
    took = time.monotonic() - start
    if rc == BUSY_EXIT:
        _say(ctx, f"tuned {dec.source} in {took:.0f} s: gain held back, the machine was busy")
        return (
            f"autotune tune held back its gain ({took:.0f} s): the machine was busy "
            f"({busy or 'see ' + log}); a later build tries again when it is quiet"
        )
    if rc != 0:
        dec.warning = True
        what = "timed out" if rc is None else f"failed (exit {rc})"
        return f"autotune tune {what} after {took:.0f} s, see {log}"
    stored = ctx.tuned_rows(dec.source_hash, dec.flags_key)[0]
    outcome = "tuned variants stored" if stored else "original kept"
    _say(ctx, f"tuned {dec.source} in {took:.0f} s: {outcome}")
    return f"tuned during this build ({took:.0f} s): no variant stored (original kept)"


BUSY_EXIT = 3  # ``autotune tune``: a gain found, held back because the machine was busy
QUIET_SAMPLE_S = 1.0


def _held_for_load(marker: str) -> bool:
    """The last tune of this source held its gain back for the load: a later build
    tries again, so this build's decision is not kept."""
    doc = cache.read_entry(marker)
    return bool(doc) and doc.get("returncode") == BUSY_EXIT


def _busy_said(log: str, offset: int) -> str:
    """The reason ``autotune tune`` gave for holding its gain back, from its log."""
    try:
        with open(log, "rb") as fh:
            fh.seek(offset)
            text = fh.read().decode(errors="replace")
    except OSError:
        return ""
    for line in reversed(text.splitlines()):
        if "the machine was busy: " in line:
            return line.split("the machine was busy: ", 1)[1].split("; the original is kept")[0]
    return ""


def _busy_now() -> str:
    """Why the machine is too busy to tune on now ('' when quiet): one second of its load,
    judged as ``tune`` judges its measurements."""
    from autotune.measure.machine_state import LoadWatch

    watch = LoadWatch().start()
    time.sleep(QUIET_SAMPLE_S)
    load = watch.stop()
    return load.busy() if load is not None else ""


def _say(ctx, text: str) -> None:
    """One progress line on stderr while a build waits for a tune (not when quiet)."""
    if not ctx.cfg.quiet:
        sys.stderr.write(f"autotune-cc: {text}\n")
        sys.stderr.flush()


# -- tuning at the link step ----------------------------------------------------
def is_link(cmd: Command) -> bool:
    return (
        not cmd.compile_only
        and not cmd.no_compile
        and not cmd.sources
        and any(i.endswith(_OBJECT_EXT) for i in cmd.other_inputs)
    )


def _compiles_of(objects: list[str], log: str) -> dict[str, dict]:
    """The newest logged compile that wrote each object (absolute path -> record)."""
    wanted = {os.path.abspath(o) for o in objects}
    found: dict[str, dict] = {}
    for rec in read_log(log):
        out, cwd = rec.get("output"), rec.get("cwd") or ""
        if not out or len(rec.get("sources", [])) != 1:
            continue
        path = os.path.normpath(os.path.join(cwd, out))
        if path in wanted:
            found[path] = rec
    return found


def tune_at_link(cmd: Command, ctx) -> list[tuple[dict, SourceDecision]]:
    """Tune the untuned sources of the objects being linked, then recompile them.

    Returns (compile record, new decision) for sources that stay original.
    """
    from autotune.buildhook.sitepath import ensure_site

    ensure_site()
    objects = [i for i in cmd.other_inputs if i.endswith(_OBJECT_EXT)]
    compiles = _compiles_of(objects, ctx.log)
    sources = {
        o: os.path.normpath(os.path.join(r["cwd"], r["sources"][0]["source"]))
        for o, r in compiles.items()
    }
    others = [os.path.abspath(i) for i in cmd.other_inputs if os.path.abspath(i) not in compiles]
    ldflags = [*others, *cmd.link_flags]
    done = []
    for obj, rec in compiles.items():
        srcdec = SourceDecision.from_dict(rec["sources"][0])
        if srcdec.used == "tuned" or not srcdec.source_hash:
            continue
        if not _has_openmp(sources[obj]):
            continue  # nothing to tune: compiled as it is
        if ctx.tuned_rows(srcdec.source_hash, srcdec.flags_key)[0]:
            continue
        ccmd = parse_command(rec["argv"])
        if not ccmd.sources:
            continue
        extra = [s for o, s in sources.items() if o != obj]
        here = os.getcwd()
        try:
            os.chdir(rec["cwd"])
            note = ensure_tuned(ccmd, ccmd.sources[0], ctx, srcdec, extra, ldflags)
        finally:
            os.chdir(here)
        if ctx.tuned_rows(srcdec.source_hash, srcdec.flags_key)[0]:
            _recompile(rec, ctx)
        else:
            srcdec.reason = note or "autotune tune stored no variant (original kept)"
            done.append((rec, srcdec))
    return done


def _has_openmp(path: str) -> bool:
    """The wrapper's own test: an ``omp`` pragma anywhere in the file."""
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError:
        return False
    return b"#pragma" in data and b"omp" in data


def _recompile(rec: dict, ctx) -> None:
    """Compile the object again through the wrapper in apply mode (now that it is tuned)."""
    env = dict(os.environ, AUTOTUNE_MODE="apply", AUTOTUNE_DB=ctx.db)
    subprocess.run(
        [sys.executable, "-m", "autotune.buildhook", *rec["argv"]],
        cwd=rec["cwd"],
        env=env,
        stdin=subprocess.DEVNULL,
        check=False,
    )

"""Decide, for one C source of a compile, what to compile: the original or a tuned text.

Order of work, cheapest first, so a warm build pays only a hash and a stat:
the decision cache (keyed by content hash, defines, mode, compiler and the
database's signature), then the ``tuned`` table, then the tuned-text cache,
and only then the front end (parse) and the variant rewriter.

A tuned choice is looked up for this machine's fingerprint and, failing
that, for machines in the database identical to it except for the name the
compiler was called by (``cc`` in a CMake build, ``gcc`` for ``autotune
tune``: same executable, same version, different fingerprint).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

from autotune import __version__
from autotune.buildhook import cache, keys
from autotune.buildhook.cmdline import Command, Source
from autotune.buildhook.config import HookConfig
from autotune.buildhook.report import LoopDecision, SourceDecision
from autotune.buildhook.tunedtext import HookFailure, build_tuned

NO_DB = "no results database at {db} (run 'autotune tune' first)"


class Context:
    """Per-process state shared by the sources of one command (store, machine)."""

    def __init__(
        self, cfg: HookConfig, db: str, compiler: str, log: str = "", root: str | None = None
    ) -> None:
        self.cfg = cfg
        self.db = db
        self.compiler = compiler
        self.log = log  # the decision log (tune mode reads it at the link step)
        self.root = root or cache.cache_root()
        self._store = None
        self._machine: dict | None = None
        self._equivalents: list[dict] | None = None

    def machine(self) -> dict:
        if self._machine is None:
            self._machine = cache.cached_machine(self.compiler, self.root)
        return self._machine

    def store(self):  # autotune.measure.store.Store, None when absent
        """The results database; never created by the hook (None when it does not exist)."""
        if self._store is None and os.path.exists(self.db):
            from autotune.measure.store import Store

            self._store = Store(self.db)
        return self._store

    def machines(self) -> list[dict]:
        """This machine first, then stored machines that differ only in the compiler's name."""
        if self._equivalents is None:
            own = self.machine()
            store = self.store()
            rows = (
                []
                if store is None
                else store.conn.execute("SELECT fingerprint, info FROM machines").fetchall()
            )
            import json

            same = []
            for fp, info in rows:
                try:
                    other = json.loads(info)
                except ValueError:
                    continue
                if fp != own["fingerprint"] and _same_hardware(own, other):
                    same.append({**other, "fingerprint": fp})
            self._equivalents = [own, *same]
        return self._equivalents

    def refresh(self) -> None:
        """Forget what may have changed (another process tuned or created the database)."""
        self.close()
        self._equivalents = None

    def close(self) -> None:
        if self._store is not None:
            self._store.close()
            self._store = None

    def tuned_rows(self, source_hash: str, flags: str) -> tuple[dict[str, dict], dict]:
        """Stored choices for this content and defines on this (or an identical) machine."""
        store = self.store()
        if store is None:
            return {}, self.machine()
        for machine in self.machines():
            rows = store.tuned(
                source_hash=source_hash, flags_key=flags, machine=machine["fingerprint"]
            )
            if rows:
                return rows, machine
        return {}, self.machine()


def _same_hardware(a: dict, b: dict) -> bool:
    def norm(m: dict) -> dict:
        d = {k: v for k, v in m.items() if k not in ("fingerprint", "compiler")}
        version = str(d.get("compiler_version", ""))
        d["compiler_version"] = version.split(" ", 1)[1] if " " in version else version
        return d

    return norm(a) == norm(b)


def decide(
    cmd: Command, src: Source, ctx: Context, before_slow: Callable[[], None] | None = None
) -> tuple[SourceDecision, str | None]:
    """The decision for ``src`` and the tuned text to compile (None: the original);
    ``before_slow`` runs first when no kept decision answers (the early compile)."""
    dec = SourceDecision(source=src.path, path=os.path.abspath(src.path))
    try:
        with open(src.path, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        dec.reason = f"cannot read the source ({exc.strerror}); the compiler will say why"
        return dec, None
    text = keys.text_of(data)
    dec.source_hash = keys.content_hash(text)
    dec.flags_key = keys.defines_key(cmd.defines)
    if os.environ.get("AUTOTUNE_CC_FAIL", "") not in ("", "0"):
        raise HookFailure("AUTOTUNE_CC_FAIL is set: failing inside the wrapper on purpose")
    mode = ctx.cfg.mode
    if "#pragma" not in text or "omp" not in text:
        dec.reason = "no OpenMP directive in the file"
        return dec, None
    if mode == "apply" and not os.path.exists(ctx.db):
        dec.reason = NO_DB.format(db=ctx.db)
        dec.warning = True
        return dec, None
    sig = cache.db_signature(ctx.db)
    fast_key = cache.digest(
        "decision",
        __version__,
        cache.code_signature(),
        mode,
        dec.source_hash,
        others_key(cmd, src),
        dec.flags_key,
        cache.compiler_identity(ctx.compiler),
        os.cpu_count(),
        sig,
        src.path,
        mode == "tune" and cmd.compile_only,
        preprocessor_flags(cmd, src),
    )
    fast_path = os.path.join(ctx.root, "decisions", fast_key)
    hit = _from_cache(fast_path, ctx.root)
    if hit is not None:
        hit[0].source, hit[0].path, hit[0].cached, hit[0].served = src.path, dec.path, True, False
        return hit
    if before_slow is not None:
        before_slow()
    try:
        dec, tuned_key, tuned_text = _served(cmd, src, ctx, dec, data) or decide_slow(
            cmd, src, ctx, dec, data
        )
    except HookFailure as exc:  # e.g. a parse error: cached too, so the next build does not
        dec.used, dec.reason, dec.warning = "original", str(exc), exc.warn  # parse again
        dec.loops, tuned_key, tuned_text = [], None, None
    save_counts()
    ctx.close()  # the last connection's close removes the WAL: part of the signature
    if cache.db_signature(ctx.db) == sig and not dec.for_now:  # nothing changed: reuse
        kept = {"decision": dec.to_dict(), "tuned_key": tuned_key, "headers": dec.headers}
        cache.add_version(fast_path, kept)
        cache.prune(os.path.join(ctx.root, "decisions"))
    return dec, tuned_text


def others_key(cmd: Command, src: Source) -> list:
    """The contents of the command's other C files (``gcc main.c grid.c``): the legality
    proof follows calls into them, so a decision holds only for these texts."""
    out = []
    for other in cmd.sources:
        if other is src:
            continue
        try:
            with open(other.path, "rb") as fh:
                out.append([other.path, keys.content_hash(keys.text_of(fh.read()))])
        except OSError:
            out.append([other.path, None])
    return out


# the environment's include path (gcc reads them as -I / -isystem after the command's)
INCLUDE_PATH_VARS = ("CPATH", "C_INCLUDE_PATH")


def preprocessor_flags(cmd: Command, src: Source) -> list:
    """What besides the defines changes the text the analysis reads: the include
    directories (which ``params.h`` is found), ``-U``, ``-include`` and the rest."""
    env = [os.environ.get(v, "") for v in INCLUDE_PATH_VARS]
    return [cmd.include_dirs, cmd.cpp_flags, cmd.undefined, src.forced, env]


def save_counts() -> None:
    """Keep the barvinok counts this decision made (``analysis.countmemo``) now: the
    wrapper leaves by ``exec``, where ``atexit`` never runs."""
    memo = sys.modules.get("autotune.analysis.countmemo")
    if memo is not None:
        memo.save_all()


def _from_cache(path: str, root: str) -> tuple[SourceDecision, str | None] | None:
    """The kept decision made with the headers as they are now, and its tuned text."""
    doc = cache.current_version(path)
    if doc is None:
        return None  # none kept, or every one read a header that has changed since
    try:
        dec = SourceDecision.from_dict(doc["decision"])
    except (TypeError, ValueError):
        return None
    if not doc.get("tuned_key"):
        return dec, None
    entry = cache.current_version(os.path.join(root, "tuned", doc["tuned_key"]))
    if entry is None or not isinstance(entry.get("text"), str):
        return None
    return dec, entry["text"]


def _served(
    cmd: Command, src: Source, ctx: Context, dec: SourceDecision, data: bytes
) -> tuple[SourceDecision, str | None, str | None] | None:
    """``decide_slow`` done by the resident process when the ``server`` setting is on and
    one answers (apply and rank modes); None: decide in this process."""
    if not ctx.cfg.server or ctx.cfg.mode not in ("apply", "rank"):
        return None
    from autotune.buildhook import server_client

    path = server_client.socket_path(ctx.root)
    if path is None:
        return None
    argv = [*cmd.launcher, cmd.compiler, *cmd.args]
    try:
        req = server_client.request(argv, cmd.sources.index(src), dec.to_dict(), data)
    except OSError:  # e.g. the working directory is gone
        return None
    reply = server_client.ask(path, req)
    if reply is None:
        return None
    if "failure" in reply:
        raise HookFailure(str(reply["failure"]), warn=bool(reply.get("warn", True)))
    try:
        served = SourceDecision.from_dict(reply["decision"])
    except (KeyError, TypeError, ValueError):
        return None
    served.served = True
    return served, reply.get("tuned_key"), reply.get("text")


def decide_slow(
    cmd: Command, src: Source, ctx: Context, dec: SourceDecision, data: bytes
) -> tuple[SourceDecision, str | None, str | None]:
    """Parse and decide (no cache answered); in this process or a server's child."""
    from autotune.buildhook.sitepath import ensure_site

    ensure_site()  # the slow path may import third-party packages (parser, numpy)
    from autotune.numpyload import load_numpy_single_threaded

    load_numpy_single_threaded()
    mode = ctx.cfg.mode
    if mode == "tune" and cmd.compile_only:
        dec.reason = "tune mode: not tuned yet; tuned when the program is linked"
    elif mode == "tune":  # compile and link: the command names the whole program
        from autotune.buildhook.tunemode import ensure_tuned

        extra = [s.path for s in cmd.sources if s is not src]
        ldflags = [os.path.abspath(i) for i in cmd.other_inputs] + cmd.link_flags
        dec.reason = ensure_tuned(cmd, src, ctx, dec, extra, ldflags)
    rows, machine = ctx.tuned_rows(dec.source_hash, dec.flags_key)
    dec.machine = machine["fingerprint"]
    ranker = None
    if mode == "rank":
        from autotune.buildhook.rank import Ranker

        ranker = Ranker.create(machine, ctx)
        if ranker.error:
            dec.warning = True
    if not rows and (ranker is None or ranker.chosen is None):
        reasons = [
            dec.reason or "no tuned result for this file content, defines and machine",
            ranker.error if ranker else "",
        ]
        dec.reason = "; ".join(r for r in reasons if r)
        return dec, None, None
    code = [
        cache.file_signature(os.path.join(os.path.dirname(__file__), "..", "variants", f))
        for f in ("apply.py", "emit.py", "directive.py")
    ]
    tuned_key = cache.digest(
        "tuned",
        __version__,
        code,
        dec.source_hash,
        others_key(cmd, src),
        dec.flags_key,
        sorted(
            (k, r["variant_key"], sorted((r.get("sizes") or {}).items())) for k, r in rows.items()
        ),
        ranker.identity if ranker else None,
        src.path,
        preprocessor_flags(cmd, src),
    )
    entry_path = os.path.join(ctx.root, "tuned", tuned_key)
    entry = cache.current_version(entry_path)  # analysed with the headers as they are
    if entry is None:
        others = [s.path for s in cmd.sources if s is not src]
        entry = build_tuned(cmd, src, data, rows, machine, ranker, others)
        cache.add_version(entry_path, entry)
        cache.prune(os.path.join(ctx.root, "tuned"))
    loops = [LoopDecision(**ld) for ld in entry["loops"]]
    dec.loops = loops
    dec.headers = entry.get("headers", [])
    dec.used = entry["used"]
    dec.reason = "; ".join(r for r in (entry["reason"], ranker.error if ranker else "") if r)
    return dec, (tuned_key if entry.get("text") else None), entry.get("text")

"""Compile a program (original or variant) with the real compiler, cached by content.

A sweep asks for the same binaries again and again (repetitions, resumed
sweeps, ``tune`` after ``measure``), so every build is keyed by a hash of
what determines the binary: the source text, the contents of the extra
sources and of local ``#include "..."`` headers, the compiler argv and the
compiler's version. Failed builds are cached too: a variant that does not
compile is not recompiled on every resume.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from autotune import textfile
from autotune.errors import EnvironmentFault, UserError
from autotune.frontend.options import SourceOptions
from autotune.measure.compile_faults import environment_fault
from autotune.measure.paths import cache_dir as default_cache_dir

DEFAULT_CFLAGS: tuple[str, ...] = ("-O2", "-fopenmp")
# how a loop's variants are compiled: one program choosing at run time, or one each
COMPILE_MODES = ("runtime", "per-variant")
COMPILE_TIMEOUT_S = 600.0
# Every build sees one __DATE__ and __TIME__ (gcc and clang read SOURCE_DATE_EPOCH, as
# reproducible builds set it): a program printing when it was compiled ("Code compiled on
# Nov 28 2026 at 10:35:12", as BOUT++ does) prints the same line from the original and
# from every variant, built seconds or sessions apart. A value the user set is kept.
BUILD_EPOCH = "1767225600"  # 2026-01-01 00:00:00 UTC


def _build_epoch() -> str:
    return os.environ.get("SOURCE_DATE_EPOCH") or BUILD_EPOCH


_OPENMP_FLAGS = ("-fopenmp", "-qopenmp", "-openmp", "-fiopenmp", "-mp")
_INCLUDE_RE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.MULTILINE)


@dataclass
class BuildResult:
    ok: bool
    exe_path: Path | None
    message: str  # empty when ok; else first compiler error line, then the rest
    cached: bool
    command: str = ""  # the compiler command, shell-quoted, for messages

    @property
    def first_line(self) -> str:
        line = self.message.splitlines()[0] if self.message else ""
        return line + _link_hint(line)


def _link_hint(line: str) -> str:
    """What to give when the link misses a function: the program's other files."""
    m = re.search(r"undefined reference to [`']([^`']+)'", line)
    if m is None:
        return ""
    if m.group(1) == "main":
        return " (this file holds no main: give the program's other files with --extra-source)"
    return (
        f" (give the file that defines {m.group(1)} with --extra-source, "
        "or its library with --ldflags)"
    )


@dataclass
class BuildOptions:
    """Compiler settings shared by every build of one sweep."""

    cc: str = "gcc"
    cflags: list[str] = field(default_factory=lambda: list(DEFAULT_CFLAGS))
    ldflags: list[str] = field(default_factory=list)
    defines: dict[str, str | None] = field(default_factory=dict)
    include_dirs: list[str] = field(default_factory=list)
    extra_sources: list[str] = field(default_factory=list)
    cache_dir: Path | None = None

    @classmethod
    def of_source(
        cls,
        source: SourceOptions,
        cc: str = "gcc",
        ldflags: Sequence[str] = (),
        extra_sources: Sequence[str] = (),
    ) -> BuildOptions:
        """The build of a file preprocessed with ``source``: our flags, then the user's."""
        return cls(
            cc=cc,
            cflags=[*DEFAULT_CFLAGS, *source.cflags],
            ldflags=list(ldflags),
            defines=dict(source.defines),
            include_dirs=list(source.include_dirs),
            extra_sources=list(extra_sources or source.extra_sources),
        )

    def to_dict(self) -> dict:
        """What identifies the build settings in the store (the 'flags')."""
        return {
            "cc": self.cc,
            "compiler_version": compiler_version(self.cc),
            "cflags": list(self.cflags),
            "ldflags": list(self.ldflags),
            "defines": {k: self.defines[k] for k in sorted(self.defines)},
            "include_dirs": [str(Path(d).resolve()) for d in self.include_dirs],
            "extra_sources": {
                str(Path(p).resolve()): file_hash(Path(p)) for p in self.extra_sources
            },
        }

    def key(self) -> str:
        blob = json.dumps(self.to_dict(), sort_keys=True).encode()
        return hashlib.sha256(blob).hexdigest()[:16]

    def build(
        self, source_text: str, *, name_hint: str = "prog", source_path: str | Path | None = None
    ) -> BuildResult:
        return build(
            source_text,
            cc=self.cc,
            cflags=self.cflags,
            ldflags=self.ldflags,
            defines=self.defines,
            include_dirs=self.include_dirs,
            extra_sources=self.extra_sources,
            cache_dir=self.cache_dir,
            name_hint=name_hint,
            source_path=source_path,
        )


_BOM_AT_LINE = re.compile("^\ufeff", re.MULTILINE)


@functools.lru_cache(maxsize=16)
def compiler_version(cc: str) -> str:
    """First line of ``cc --version``; UserError when the compiler is missing."""
    argv = _cc_argv(cc)
    try:
        out = subprocess.run(
            [*argv, "--version"],
            capture_output=True,
            text=True,
            timeout=30,
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        raise UserError(f"cannot run the compiler: {shlex.join(argv)} --version: {exc}") from exc
    text = (out.stdout or out.stderr).strip()
    return text.splitlines()[0].strip() if text else ""


def _cc_argv(cc: str) -> list[str]:
    argv = shlex.split(cc) or ["gcc"]
    if shutil.which(argv[0]) is None:
        raise UserError(f"compiler not found: {argv[0]!r} (command: {cc}); install it or pass --cc")
    return argv


def file_hash(path: Path) -> str:
    """SHA-256 of a file the build or the runs depend on; one user line if unreadable."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError as exc:
        raise UserError(f"cannot read {path}: {exc.strerror}") from exc


def _local_headers(text: str, here: Path, search: Sequence[Path], seen: dict[str, str]) -> None:
    """Hash every ``#include "x"`` reachable from ``text`` (a changed header = new binary)."""
    for name in _INCLUDE_RE.findall(text):
        for d in (here, *search):
            p = (d / name).resolve()
            if p.is_file():
                key = str(p)
                if key not in seen and len(seen) < 500:
                    data = p.read_bytes()
                    seen[key] = hashlib.sha256(data).hexdigest()
                    _local_headers(data.decode("utf-8", "replace"), p.parent, search, seen)
                break


def first_error_line(stderr: str) -> str:
    """The line a person needs first: the first compiler or linker error."""
    lines = [ln.rstrip() for ln in stderr.splitlines() if ln.strip()]
    # collect2's "ld returned 1 exit status" says less than the linker's own line before it
    own = [ln for ln in lines if not ln.startswith("collect2:")]
    for pattern in (r"\berror\b", r"undefined reference|cannot find|fatal"):
        for ln in own:
            if re.search(pattern, ln, re.IGNORECASE):
                return ln
    for ln in lines:
        if re.search(r"\berror\b", ln, re.IGNORECASE):
            return ln
    return lines[0] if lines else "compiler failed without a message"


def _openmp_flag_missing(flags: Sequence[str]) -> bool:
    return not any(f.startswith(_OPENMP_FLAGS) for f in flags)


def compile_argv(
    cc: str,
    src: Path,
    exe: Path,
    *,
    cflags: Sequence[str],
    ldflags: Sequence[str],
    defines: Mapping[str, str | None],
    include_dirs: Sequence[str],
    extra_sources: Sequence[str],
    source_dir: Path | None,
) -> list[str]:
    """One compile-and-link command; adds ``-fopenmp`` if no OpenMP flag, ``-lm`` last."""
    argv = [*_cc_argv(cc), *cflags]
    if _openmp_flag_missing([*cflags, *ldflags]):
        argv.append("-fopenmp")
    if source_dir is not None:
        argv += ["-iquote", str(source_dir)]  # quoted includes next to the user's file
    argv += [f"-I{Path(d).resolve()}" for d in include_dirs]
    for name in sorted(defines):
        value = defines[name]
        argv.append(f"-D{name}" if value is None else f"-D{name}={value}")
    argv += [str(src), *(str(Path(p).resolve()) for p in extra_sources)]
    argv += ["-o", str(exe), *ldflags]
    if "-lm" not in ldflags:
        argv.append("-lm")
    return argv


# Over 60 lines: one cached compile: key, cache hit, compile, atomic publish; each step is a call.
def build(
    source_text: str,
    *,
    cc: str = "gcc",
    cflags: Sequence[str] = DEFAULT_CFLAGS,
    ldflags: Sequence[str] = (),
    defines: Mapping[str, str | None] | None = None,
    include_dirs: Sequence[str] = (),
    extra_sources: Sequence[str] = (),
    cache_dir: str | Path | None = None,
    name_hint: str = "prog",
    source_path: str | Path | None = None,
) -> BuildResult:
    """Compile ``source_text`` to an executable, or return the cached result.

    ``source_path`` is the user's file the text stands for: a ``#line 1``
    marker makes diagnostics (and ``__FILE__``) name it, and its directory is
    searched for quoted includes. A failed compile is a result, not an error;
    only a missing compiler raises UserError.
    """
    defines = dict(defines or {})
    root = Path(cache_dir) if cache_dir else default_cache_dir()
    builds = root / "builds"
    try:
        return _build_in(
            builds,
            source_text,
            cc,
            cflags,
            ldflags,
            defines,
            include_dirs,
            extra_sources,
            name_hint,
            source_path,
        )
    except OSError as exc:  # the cache folder: full, read-only, gone
        where = exc.filename or builds
        raise EnvironmentFault(
            f"cannot write the build cache {where}: {exc.strerror or exc} "
            "(set AUTOTUNE_CACHE_DIR to a folder with space)"
        ) from None


def _build_in(
    builds: Path,
    source_text: str,
    cc: str,
    cflags: Sequence[str],
    ldflags: Sequence[str],
    defines: dict[str, str | None],
    include_dirs: Sequence[str],
    extra_sources: Sequence[str],
    name_hint: str,
    source_path: str | Path | None,
) -> BuildResult:
    """``build`` in the cache folder ``builds``; OSError where the folder fails."""
    builds.mkdir(parents=True, exist_ok=True)
    _sweep_unfinished(builds)
    source_dir = Path(source_path).resolve().parent if source_path else None
    if source_path is not None:
        quoted = str(Path(source_path).resolve()).replace("\\", "\\\\").replace('"', '\\"')
        source_text = f'#line 1 "{quoted}"\n{source_text}'
    # gcc reads a UTF-8 byte-order mark only as a file's first bytes: the user's file's,
    # after the line marker or the instrumentation's prelude, goes
    source_text = _BOM_AT_LINE.sub("", source_text, count=1)
    name = re.sub(r"[^A-Za-z0-9_.-]", "_", name_hint)[:60] or "prog"
    placeholder = Path("@SRC@")
    argv = compile_argv(
        cc,
        placeholder,
        Path("@EXE@"),
        cflags=cflags,
        ldflags=ldflags,
        defines=defines,
        include_dirs=include_dirs,
        extra_sources=extra_sources,
        source_dir=source_dir,
    )
    key = _cache_key(source_text, argv, cc, name, source_dir, include_dirs, extra_sources)
    final = builds / key
    command = shlex.join(argv).replace("@SRC@", f"{name}.c").replace("@EXE@", name)

    hit = _read_cached(final, name, command)
    if hit is not None:
        return hit
    if final.exists():  # incomplete or emptied entry: build it again
        shutil.rmtree(final, ignore_errors=True)
    work = Path(tempfile.mkdtemp(prefix=".tmp-", dir=builds))
    src, exe = work / f"{name}.c", work / name
    textfile.write_text(src, source_text)
    real_argv = [
        str(src) if a == str(placeholder) else str(exe) if a == "@EXE@" else a for a in argv
    ]
    try:
        ok, err = _compile(real_argv, exe)
    except EnvironmentFault:
        shutil.rmtree(work, ignore_errors=True)  # nothing of a fault is kept
        raise
    message = "" if ok else _compile_message(err)
    (work / "result.json").write_text(json.dumps({"ok": ok, "message": message}))
    try:
        os.rename(work, final)
    except OSError:  # another process built the same key first: use theirs
        shutil.rmtree(work, ignore_errors=True)
        hit = _read_cached(final, name, command)
        if hit is not None:
            hit.cached = False
            return hit
        raise
    return BuildResult(ok, final / name if ok else None, message, False, command)


def _sweep_unfinished(builds: Path) -> None:
    """Remove the work folders of builds that were killed (``.tmp-*`` older than any
    compile may take): a killed autotune leaves nothing in the cache for long."""
    cutoff = time.time() - 2 * COMPILE_TIMEOUT_S
    for work in builds.glob(".tmp-*"):
        try:
            if work.lstat().st_mtime < cutoff:
                shutil.rmtree(work, ignore_errors=True)
        except OSError:
            continue


def _cache_key(
    source_text: str,
    argv: list[str],
    cc: str,
    name: str,
    source_dir: Path | None,
    include_dirs: Sequence[str],
    extra_sources: Sequence[str],
) -> str:
    """What decides the binary: text, command, compiler version, local headers, extras."""
    headers: dict[str, str] = {}
    search = [p for p in (source_dir,) if p] + [Path(d).resolve() for d in include_dirs]
    _local_headers(source_text, source_dir or Path.cwd(), search, headers)
    for extra in extra_sources:
        headers[str(Path(extra).resolve())] = file_hash(Path(extra))
    blob = json.dumps(
        {
            "text": textfile.content_hash(source_text),
            "argv": argv,
            "version": compiler_version(cc),
            "deps": headers,
            "name": name,
            "epoch": _build_epoch(),
        },
        sort_keys=True,
    ).encode()
    return hashlib.sha256(blob).hexdigest()[:32]


def _compile(argv: list[str], exe: Path) -> tuple[bool, str]:
    """(ok, compiler output) of one compile; a compiler that hangs is a failed build."""
    try:
        proc = subprocess.run(
            argv,
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="replace",  # a Latin-1 line the compiler quotes in a warning
            timeout=COMPILE_TIMEOUT_S,
            stdin=subprocess.DEVNULL,
            env=dict(os.environ, SOURCE_DATE_EPOCH=_build_epoch()),
        )
    except subprocess.TimeoutExpired:
        return False, f"error: compiler timed out after {COMPILE_TIMEOUT_S:.0f} s"
    output = proc.stderr or proc.stdout
    fault = environment_fault(proc.returncode, output)
    if fault:
        raise EnvironmentFault(f"{fault} while compiling a variant: nothing was recorded")
    return proc.returncode == 0 and exe.is_file(), output


def _compile_message(stderr: str) -> str:
    first = first_error_line(stderr)
    rest = stderr.strip()
    if len(rest) > 4000:
        rest = rest[:4000] + "\n..."
    return f"{first}\n{rest}" if rest and rest != first else first


def _read_cached(final: Path, name: str, command: str) -> BuildResult | None:
    try:
        meta = json.loads((final / "result.json").read_text())
    except (OSError, ValueError):
        return None
    exe = final / name
    if meta.get("ok"):
        if not exe.is_file():
            return None
        return BuildResult(True, exe, "", True, command)
    return BuildResult(False, None, meta.get("message", ""), True, command)

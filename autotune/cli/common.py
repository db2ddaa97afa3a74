"""Command-line options shared by every command that reads a C file.

They mirror a compiler's (``-D``, ``-I``, ``--cflags``) because sizes come
from macros: trip counts are evaluated with the same defines the build uses.
"""

from __future__ import annotations

import argparse
import os
import shlex
from pathlib import Path

from autotune.errors import UserError
from autotune.frontend.options import SourceOptions
from autotune.measure.outputmask import NOT_COMPARED

__all__ = ["SourceOptions", "add_source_arguments", "parse_define", "source_options"]


def add_source_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``-D``, ``-I`` and ``--cflags`` to ``parser``."""
    g = parser.add_argument_group("preprocessing (as for the compiler)")
    g.add_argument(
        "-D",
        dest="defines",
        action="append",
        default=[],
        metavar="NAME[=VALUE]",
        help="define a macro, e.g. -D N=2000 (repeatable)",
    )
    g.add_argument(
        "-I",
        dest="include_dirs",
        action="append",
        default=[],
        metavar="DIR",
        help="add an include directory (repeatable)",
    )
    g.add_argument(
        "--cflags",
        default="",
        metavar='"FLAGS"',
        help='extra compiler flags in one string, e.g. --cflags "-DN=100 -O3"; '
        "-D and -I inside it count for the analysis too",
    )


def parse_define(text: str) -> tuple[str, str]:
    name, _, value = text.partition("=")
    name = name.strip()
    if (
        not name
        or not (name[0].isalpha() or name[0] == "_")
        or not all(c.isalnum() or c == "_" for c in name.split("(")[0])
    ):
        raise UserError(f"bad -D value {text!r}: expected NAME or NAME=VALUE")
    return name, value if "=" in text else "1"


def source_options(args: argparse.Namespace) -> SourceOptions:
    """Build SourceOptions from parsed arguments (``-D``/``-I`` also inside --cflags)."""
    opts = SourceOptions()
    try:
        flags = shlex.split(getattr(args, "cflags", "") or "")
    except ValueError as exc:
        raise UserError(f"cannot split --cflags: {exc}") from None
    rest: list[str] = []
    it = iter(flags)
    for flag in it:
        if flag in ("-D", "-I"):
            value = next(it, None)
            if value is None:
                raise UserError(f"--cflags: {flag} needs a value")
            flag = flag + value
        if flag.startswith("-D"):
            k, v = parse_define(flag[2:])
            opts.defines[k] = v
        elif flag.startswith("-I"):
            opts.include_dirs.append(flag[2:])
        else:
            rest.append(flag)
    for d in getattr(args, "defines", []) or []:
        k, v = parse_define(d)
        opts.defines[k] = v
    opts.include_dirs += list(getattr(args, "include_dirs", []) or [])
    opts.cflags = rest
    opts.extra_sources = list(getattr(args, "extra_source", []) or [])
    for extra in opts.extra_sources:
        if not Path(extra).is_file():
            raise UserError("no such file (--extra-source)", str(extra))
    return opts


def finding_label(text: str) -> str:
    """How a sweep's finding is printed: what verification left out by design (the times
    a program reports) is a note, anything else a warning."""
    return "note" if text.startswith(NOT_COMPARED) else "warning"


def check_writable(path: str | Path, what: str = "cannot write") -> None:
    """One line, before any work, when ``path`` cannot be written: its folder missing, a
    read-only file system, permissions, a folder that takes no files (``/proc``). Tried
    for real: a new file is made and removed, an existing one opened without change."""
    import errno

    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise UserError(f"{what}: no such folder", str(target))
    existed = target.exists()
    try:
        fd = os.open(target, os.O_WRONLY | (0 if existed else os.O_CREAT | os.O_EXCL), 0o644)
    except OSError as exc:
        why = {
            errno.EROFS: "the file system is read-only",
            errno.EACCES: "permission denied",
            errno.EPERM: "permission denied",
            errno.ENOENT: "the folder takes no new files",
            errno.EISDIR: "it is a folder",
        }.get(exc.errno, exc.strerror or str(exc))
        raise UserError(f"{what}: {why}", str(target)) from None
    os.close(fd)
    if not existed:
        os.unlink(target)

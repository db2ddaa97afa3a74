"""Several C files on one command line: separate programs, or the files of one program.

``autotune tune main.c simulation.c io.c`` names one program when exactly one of the files
defines ``main``: each file is then read with the others as its program's other files (as
``--extra-source`` gives them), so the proof follows calls between them and the profile
run links. Before, each file was taken as a program of its own: the file holding the loops
could not link (no ``main``) and every call into another file kept its loop. Files that
each define ``main`` stay separate programs (``autotune analyze kernels/*.c``).
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
# a definition: the parameter list (ANSI or K&R names) followed by its body or by the
# K&R declarations of its parameters; a call or a prototype is followed by ';' or ')'
_MAIN = re.compile(r"(?<![\w.>])main\s*\([^;{}()]*\)\s*(?:\{|[A-Za-z_])")


def defines_main(path: str) -> bool:
    """Whether the file's text defines ``main`` (comments left out; a file that cannot be
    read is no program's main: the command's own check reports it)."""
    try:
        text = Path(path).read_text(errors="replace")
    except OSError:
        return False
    return _MAIN.search(_COMMENT.sub(" ", text)) is not None


def main_file(files: list[str]) -> str | None:
    """The one file of several that defines ``main`` (None: one file, or not one program)."""
    if len(files) < 2:
        return None
    mains = [f for f in files if defines_main(f)]
    return mains[0] if len(mains) == 1 else None


def for_file(args: argparse.Namespace, path: str) -> argparse.Namespace:
    """The command line to read ``path`` under: the other files given with it join its
    ``--extra-source`` when they form one program (decided once per command, by
    ``program_note``)."""
    if not hasattr(args, "extra_source"):
        return args
    if not hasattr(args, "program_main"):
        program_note(args)
    if args.program_main is None:
        return args
    given = list(args.extra_source or [])
    others = [f for f in args.files if f != path and f not in given]
    return argparse.Namespace(**{**vars(args), "extra_source": given + others})


def program_note(args: argparse.Namespace) -> str | None:
    """Whether the command's files are one program, decided once and kept on ``args``
    (``program_main``: the file that defines main, or None); what the command says then."""
    if not hasattr(args, "program_main"):
        args.program_main = main_file(list(args.files))
    if args.program_main is None:
        return None
    return (
        f"autotune: note: {len(args.files)} files, one program (only {args.program_main} "
        "defines main): each file is read with the others as the program's other files"
    )

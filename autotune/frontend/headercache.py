"""The system headers' declarations, parsed once per set of headers.

A preprocessed unit is mostly system headers: PolyBench's ``syr2k`` is 1800
lines of ``stdio.h``, ``math.h``, ... before 300 of its own, and parsing them
was most of ``autotune rank``'s time. The leading run of system-header text is
the same for every file that includes the same headers with the same flags, so
its parse is kept (pickled, under the cache directory, keyed by that text and
the pycparser version). The rest of the unit is then parsed on its own, after a
line that declares the headers' typedef names (the only thing about them the
C grammar needs), and the two parts are joined: the same FileAST as one parse.
Anything unexpected falls back to parsing the whole text.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import re
import tempfile
from collections.abc import Callable

import pycparser
from pycparser import c_ast

from autotune import cachedir
from autotune.frontend.preprocess import SYSTEM_PREFIX

MIN_LINES = 200  # a shorter prefix is parsed with the rest
_MARKER = re.compile(r'# \d+ "([^"]*)"')
VERSION = "1"  # bump when what is kept changes


def split_system_prefix(text: str) -> tuple[str, str]:
    """(leading system-header text, the rest): the prefix ends where the first line of
    code from a file that is not a system header starts (at its line marker)."""
    pos = 0
    marker_at = 0
    system = True
    seen: set[str] = set()  # system headers, also when a later marker lacks the flag
    for line in text.splitlines(keepends=True):
        m = _MARKER.match(line)
        if m:
            marker_at = pos
            name = m.group(1)
            if name.startswith(SYSTEM_PREFIX):
                seen.add(name[len(SYSTEM_PREFIX) :])
            system = name.startswith("<") or name in seen
        elif line.strip() and not system:
            return text[:marker_at], text[marker_at:]
        pos += len(line)
    return "", text


def typedef_names(ast: c_ast.FileAST) -> list[str]:
    return [d.name for d in ast.ext if isinstance(d, c_ast.Typedef) and d.name]


def cached_prefix(prefix: str, parse: Callable[[str], c_ast.FileAST]) -> c_ast.FileAST:
    """The prefix's FileAST, from the cache or parsed (and kept) now."""
    key = hashlib.sha256(
        f"{VERSION}\0{pycparser.__version__}\0{prefix}".encode("utf-8", "surrogateescape")
    ).hexdigest()
    folder = os.path.join(cachedir.cache_dir(), "headers")
    path = os.path.join(folder, f"{key}.pickle")
    with contextlib.suppress(Exception):  # a cache that cannot be read is made again
        with open(path, "rb") as fh:
            ast = pickle.load(fh)
        if isinstance(ast, c_ast.FileAST):
            return ast
    ast = parse(prefix)
    with contextlib.suppress(OSError, pickle.PicklingError, RecursionError):
        os.makedirs(folder, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".headers.", dir=folder)
        try:
            with os.fdopen(fd, "wb") as fh:
                pickle.dump(ast, fh, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, path)
        finally:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    return ast


def parse_with_cached_headers(
    text: str, parse: Callable[[str], c_ast.FileAST]
) -> c_ast.FileAST | None:
    """The unit's FileAST with its system-header prefix from the cache; None when the
    split does not apply (the caller parses the whole text)."""
    prefix, rest = split_system_prefix(text)
    if prefix.count("\n") < MIN_LINES:
        return None
    try:
        head = cached_prefix(prefix, parse)
        names = typedef_names(head)
        stand_ins = "".join(f"typedef int {n};\n" for n in names)
        tail = parse(stand_ins + rest)
    except Exception:  # any surprise: one parse of the whole text instead
        return None
    declared = tail.ext[: len(names)]
    if [getattr(d, "name", None) for d in declared] != names:
        return None
    return c_ast.FileAST(head.ext + tail.ext[len(names) :], coord=tail.coord)

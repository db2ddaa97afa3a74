"""The system headers' declarations, parsed once per set of headers.

A preprocessed unit is mostly system headers: PolyBench's ``syr2k`` is 1800
lines of ``stdio.h``, ``math.h``, ... before 300 of its own, and parsing them
was most of ``autotune rank``'s time. The leading run of system-header text is
the same for every file that includes the same headers with the same flags, so
its parse is kept (pickled, under the cache directory, keyed by that text, blind
to the user's file names in its line markers, and the pycparser version). The
rest of the unit is then parsed on its own, after a line that declares the
headers' typedef names (the only thing about them the C grammar needs), and the
two parts are joined: the FileAST of one parse, less the header declarations
the program does not reach by name (``declnames``). Anything unexpected falls
back to parsing the whole text.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass

import pycparser
from pycparser import c_ast

from autotune import cachedir
from autotune.frontend.declnames import declared, reached, used_names
from autotune.frontend.preprocess import SYSTEM_PREFIX

MIN_LINES = 200  # a shorter prefix is parsed with the rest
_MARKER = re.compile(r'# \d+ "([^"]*)"')
_USER_MARKER = re.compile(r'^(# \d+ )"[^"<]([^"]*)"', re.MULTILINE)  # not <system>, <built-in>
VERSION = "2"  # bump when what is kept changes


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


@dataclass
class KeptHeaders:
    """The headers' parse as kept: each declaration pickled on its own, with the names
    it defines and uses, so a unit unpickles only the ones it reaches."""

    typedefs: list[str]
    definers: dict[str, list[int]]
    uses: list[tuple[str, ...]]
    blobs: list[bytes]

    @classmethod
    def of(cls, ast: c_ast.FileAST) -> KeptHeaders:
        definers: dict[str, list[int]] = {}
        uses = []
        for i, decl in enumerate(ast.ext):
            defines, used = declared(decl)
            for name in defines:
                definers.setdefault(name, []).append(i)
            uses.append(tuple(sorted(used)))
        blobs = [pickle.dumps(d, protocol=pickle.HIGHEST_PROTOCOL) for d in ast.ext]
        return cls(typedef_names(ast), definers, uses, blobs)

    def reached_from(self, names: set[str]) -> list[c_ast.Node]:
        """The declarations ``names`` reach, in the headers' order."""
        return [pickle.loads(self.blobs[i]) for i in reached(self.uses, self.definers, names)]


def cache_key(prefix: str) -> str:
    """The prefix's key, blind to the names of the user's files in its line markers
    (``# 0 "3mm.c"``, ``# 2 "3mm.c" 2``): they carry no code, so every file that
    includes the same headers alike shares one kept parse."""
    blind = _USER_MARKER.sub(r'\1""', prefix)
    text = f"{VERSION}\0{pycparser.__version__}\0{blind}"
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()


def cached_prefix(prefix: str, parse: Callable[[str], c_ast.FileAST]) -> KeptHeaders:
    """The prefix's kept parse, from the cache or parsed (and kept) now."""
    folder = os.path.join(cachedir.cache_dir(), "headers")
    path = os.path.join(folder, f"{cache_key(prefix)}.pickle")
    with contextlib.suppress(Exception):  # a cache that cannot be read is made again
        with open(path, "rb") as fh:
            kept = pickle.load(fh)
        if isinstance(kept, KeptHeaders):
            return kept
    kept = KeptHeaders.of(parse(prefix))
    with contextlib.suppress(OSError, pickle.PicklingError, RecursionError):
        os.makedirs(folder, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".headers.", dir=folder)
        try:
            with os.fdopen(fd, "wb") as fh:
                pickle.dump(kept, fh, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, path)
        finally:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    return kept


def parse_with_cached_headers(
    text: str, parse: Callable[[str], c_ast.FileAST]
) -> c_ast.FileAST | None:
    """The unit's FileAST: the program's own declarations after those of the system
    headers it reaches (by name, transitively), from the cache; None when the split
    does not apply (the caller parses the whole text)."""
    prefix, rest = split_system_prefix(text)
    if prefix.count("\n") < MIN_LINES:
        return None
    try:
        kept = cached_prefix(prefix, parse)
        names = kept.typedefs
        stand_ins = "".join(f"typedef int {n};\n" for n in names)
        tail = parse(stand_ins + rest)
        declared_here = tail.ext[: len(names)]
        if [getattr(d, "name", None) for d in declared_here] != names:
            return None
        own = tail.ext[len(names) :]
        head = kept.reached_from(used_names(own))
    except Exception:  # any surprise: one parse of the whole text instead
        return None
    return c_ast.FileAST(head + own, coord=tail.coord)

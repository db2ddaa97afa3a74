"""C that gcc compiles and pycparser does not read, named in the error a user sees.

pycparser's own message is the token it stopped before (``before: t_``), or no place at all
(``Invalid expression``). Where the construct that stopped it is one of GCC's extensions
(or a newer standard's) the message names it, so the user knows the file is fine and why
autotune compiles it as written.
"""

from __future__ import annotations

import re

from autotune.frontend.preprocess import SYSTEM_PREFIX

# what each pattern finds, in the words of the message; checked on the line the parser
# stopped at (after preprocessing: a macro's expansion is there)
_ON_LINE = [
    (re.compile(r"\b_Generic\b"), "a _Generic selection (C11)"),
    (re.compile(r"\btypeof\s*\("), "typeof (GNU C, C23)"),
    (re.compile(r"\b__auto_type\b"), "__auto_type (GNU C)"),
    (re.compile(r"\bcase\b[^:;]*\.\.\."), "a case range (GNU C)"),
    (re.compile(r"\[[^\]]*\.\.\.[^\]]*\]\s*="), "a designated range [a ... b] (GNU C)"),
    (re.compile(r"\?\s*:"), "a conditional with its middle operand left out, x ?: y (GNU C)"),
    (re.compile(r"\b__builtin_types_compatible_p\b"), "__builtin_types_compatible_p (GNU C)"),
    (re.compile(r"\b__alignof(?:__)?\s*\("), "__alignof__ (GNU C)"),
]
# found anywhere when the parser gives no place: the system headers hold none of these
_ANYWHERE = _ON_LINE[:1]
_MARKER = re.compile(r'^# (\d+) "([^"]*)"')


def _lines(text: str):
    """(file, line, text) of each line of preprocessed ``text``, by its line markers."""
    name, line = "", 0
    for raw in text.splitlines():
        marker = _MARKER.match(raw)
        if marker:
            name, line = marker.group(2), int(marker.group(1))
            continue
        yield name, line, raw
        line += 1


def construct_on_line(text: str, file: str, line: int) -> str:
    """The unreadable construct on ``file``:``line`` of preprocessed ``text`` ('' where
    none of those known is there)."""
    held = " ".join(raw for name, at, raw in _lines(text) if at == line and name == file)
    return next((what for pattern, what in _ON_LINE if pattern.search(held)), "")


def unsupported_construct(text: str) -> tuple[str, str] | None:
    """(file:line, what) of the first construct pycparser cannot read in preprocessed
    ``text`` (line markers give the place), or None: any of them on the user's own lines,
    else a ``_Generic`` a system header's macro expanded into."""
    if not any(pattern.search(text) for pattern, _ in _ON_LINE):
        return None
    for patterns, mine in ((_ON_LINE, True), (_ANYWHERE, False)):
        for name, line, raw in _lines(text):
            if mine and name.startswith(SYSTEM_PREFIX):
                continue
            for pattern, what in patterns:
                if pattern.search(raw):
                    return f"{name.removeprefix(SYSTEM_PREFIX)}:{line}", what
    return None

"""C that gcc compiles and pycparser does not read, named in the error a user sees.

pycparser's own message is the token it stopped before (``before: t_``), or no place at all
(``Invalid expression``). Where the construct that stopped it is one of GCC's extensions
(or a newer standard's) the message names it, so the user knows the file is fine and why
autotune compiles it as written.
"""

from __future__ import annotations

import functools
import re

from autotune.frontend.preprocess import SYSTEM_PREFIX

# (pattern, what it finds in the words of the message, a small unit that uses it): the
# pattern is checked on the line the parser stopped at (after preprocessing: a macro's
# expansion is there); the unit tells whether the installed pycparser reads the construct
# (3.12 reads _Generic, 3.0 does not), so a construct it reads is never blamed
_KNOWN = [
    (
        r"\b_Generic\b",
        "a _Generic selection (C11)",
        "int f(double x) { return _Generic(x, double: 1, default: 0); }",
    ),
    (r"\btypeof\s*\(", "typeof (GNU C, C23)", "void f(int *x) { typeof(*x) t = *x; }"),
    (r"\b__auto_type\b", "__auto_type (GNU C)", "int f(int x) { __auto_type y = x; return y; }"),
    (
        r"\bcase\b[^:;]*\.\.\.",
        "a case range (GNU C)",
        "int f(int c) { switch (c) { case 1 ... 5: return 1; } return 0; }",
    ),
    (
        r"\[[^\]]*\.\.\.[^\]]*\]\s*=",
        "a designated range [a ... b] (GNU C)",
        "int a[4] = { [0 ... 3] = 1 };",
    ),
    (
        r"\?\s*:",
        "a conditional with its middle operand left out, x ?: y (GNU C)",
        "int f(int x) { return x ?: 7; }",
    ),
    (
        r"\b__builtin_types_compatible_p\b",
        "__builtin_types_compatible_p (GNU C)",
        "int f(void) { return __builtin_types_compatible_p(int, long); }",
    ),
    (r"\b__alignof(?:__)?\s*\(", "__alignof__ (GNU C)", "int f(void) { return __alignof__(int); }"),
]
_MARKER = re.compile(r'^# (\d+) "([^"]*)"')


@functools.cache
def parser_reads(what: str) -> bool:
    """Whether the installed pycparser reads the construct named ``what`` (one of the
    message words of _KNOWN): parsed once, on a unit that uses it."""
    from pycparser import c_parser

    unit = next(sample for _, name, sample in _KNOWN if name == what)
    try:
        c_parser.CParser().parse(unit, "<probe>")
    except Exception:  # pycparser raises ParseError, and others on what it half reads
        return False
    return True


def known_constructs() -> list[str]:
    """The constructs this module can name, in the words of its messages."""
    return [what for _, what, _ in _KNOWN]


@functools.cache
def _unread() -> tuple[list, list]:
    """(patterns checked on the parser's line, those found anywhere when it gives no place)
    for the constructs the installed pycparser does not read."""
    on_line = [(re.compile(p), what) for p, what, _ in _KNOWN if not parser_reads(what)]
    # found anywhere when the parser gives no place: the system headers hold none of these
    anywhere = [(pat, what) for pat, what in on_line if "_Generic" in what]
    return on_line, anywhere


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
    return next((what for pattern, what in _unread()[0] if pattern.search(held)), "")


def unsupported_construct(text: str) -> tuple[str, str] | None:
    """(file:line, what) of the first construct pycparser cannot read in preprocessed
    ``text`` (line markers give the place), or None: any of them on the user's own lines,
    else a ``_Generic`` a system header's macro expanded into."""
    on_line, anywhere = _unread()
    if not any(pattern.search(text) for pattern, _ in on_line):
        return None
    for patterns, mine in ((on_line, True), (anywhere, False)):
        for name, line, raw in _lines(text):
            if mine and name.startswith(SYSTEM_PREFIX):
                continue
            for pattern, what in patterns:
                if pattern.search(raw):
                    return f"{name.removeprefix(SYSTEM_PREFIX)}:{line}", what
    return None

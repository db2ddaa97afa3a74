"""Where a directive is written in the user's text, and whether autotune can edit it.

A variant is the user's file with clause spans changed, so a directive must be
readable as text on its line: ``#pragma omp ...``, or a string literal starting with
``omp`` given to ``_Pragma`` or to a macro around it (graph500's ``OMP("omp for")``).
A directive made by stringizing (``PRAGMA(omp for)`` with ``_Pragma(#x)``), or by a
macro with arguments around it (``OMP_FOR(schedule(static))``), is rewritten at its use
site: a line that holds only the invocation gets ``_Pragma("omp ...")`` with the
directive the preprocessor made of it (``materialize``), once the analysis has checked
that the preprocessor makes the same program of both texts; the macro is untouched.
Anything else is left as written, and its loop says so.
"""

from __future__ import annotations

import re

from autotune import textfile

PRAGMA_RE = re.compile(r"[ \t]*#[ \t]*pragma[ \t]+omp\b")
MACRO_RE = re.compile(r'\b([A-Za-z_]\w*)[ \t]*\([ \t]*"[ \t]*(omp\b)[^"\\\n]*"[ \t]*\)')
_CALL_RE = re.compile(r"\b([A-Za-z_]\w*)[ \t]*\(")


def not_editable(line: str) -> str:
    """Why the directive on ``line`` (one physical line of the user's file) cannot be
    rewritten; '' when it can."""
    if PRAGMA_RE.match(line) or MACRO_RE.search(line):
        return ""
    call = _CALL_RE.search(line)
    what = f"macro {call.group(1)}(...)" if call else "a macro"
    return (
        f"the directive on this line comes from {what} whose argument is not a string "
        "literal starting with 'omp': autotune rewrites #pragma omp lines and "
        '_Pragma("omp ...") literals only, so this loop is left as written'
    )


def directive_line(path: str, line: int, cache: dict[str, list[str] | None]) -> str | None:
    """Line ``line`` of ``path`` as the project reads sources (None when it cannot be
    read); ``cache`` keeps each file's lines for one analysis."""
    if path not in cache:
        try:
            cache[path] = textfile.read_bytes_text(path).splitlines()
        except OSError:
            cache[path] = None
    lines = cache[path]
    return lines[line - 1] if lines is not None and 0 < line <= len(lines) else None


_SITE_RE = re.compile(r"[ \t]*([A-Za-z_]\w*)[ \t]*\(")


def macro_site(line: str) -> tuple[int, int] | None:
    """The span of the one macro invocation that fills ``line`` (blanks and a trailing
    comment aside), or None: only such a line can be replaced by the ``_Pragma`` its
    invocation expands to."""
    m = _SITE_RE.match(line)
    if m is None or m.group(1) == "_Pragma":
        return None
    depth, i = 0, m.end() - 1
    while i < len(line):
        c = line[i]
        if c in "\"'":
            j = i + 1
            while j < len(line) and line[j] != c:
                j += 2 if line[j] == "\\" else 1
            i = j + 1
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                rest = line[i + 1 :].strip()
                if rest and not rest.startswith(("//", "/*")):
                    return None
                return m.start(1), i + 1
        i += 1
    return None


def pragma_literal(text: str) -> str:
    """``_Pragma("...")`` that makes the directive ``text`` (``omp parallel for ...``)."""
    quoted = text.replace("\\", "\\\\").replace('"', '\\"')
    return f'_Pragma("{quoted}")'


def materialize(source: str, sites: dict[int, str]) -> str:
    """``source`` with the macro invocation on each line of ``sites`` (line -> directive
    text) replaced by its ``_Pragma``; the other lines, and the line count, unchanged."""
    if not sites:
        return source
    lines = source.split("\n")
    for line, text in sites.items():
        if not 0 < line <= len(lines):
            continue
        span = macro_site(lines[line - 1])
        if span is not None:
            row = lines[line - 1]
            lines[line - 1] = row[: span[0]] + pragma_literal(text) + row[span[1] :]
    return "\n".join(lines)

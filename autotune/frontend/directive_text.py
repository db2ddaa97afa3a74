"""Where a directive is written in the user's text, and whether autotune can edit it.

A variant is the user's file with clause spans changed, so a directive must be
readable as text on its line: ``#pragma omp ...``, or a string literal starting with
``omp`` given to ``_Pragma`` or to a macro around it (graph500's ``OMP("omp for")``).
A directive made by stringizing (``PRAGMA(omp for)`` with ``_Pragma(#x)``) or pasted
from parts is left as written, and its loop says so.
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

"""A small C text scanner: just enough lexing to find statement ends in the user's text.

Emission edits the user's file as text (never a regenerated AST), so every
byte outside the edits survives; these helpers skip comments, string and
character literals, line splices and preprocessor lines so a brace or a
semicolon inside them is never taken for code.
"""

from __future__ import annotations

import bisect

IDENT_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_OPEN = {"(": ")", "[": "]", "{": "}"}


class ScanError(ValueError):
    """The text ended (or did not match) where a C construct was expected."""


def line_starts(src: str) -> list[int]:
    """Offsets at which each physical line starts (lines end at '\\n' only, as in cpp)."""
    starts = [0]
    i = src.find("\n")
    while i >= 0:
        starts.append(i + 1)
        i = src.find("\n", i + 1)
    return starts


def line_of(starts: list[int], offset: int) -> int:
    """1-based line number holding ``offset``."""
    return bisect.bisect_right(starts, offset)


def line_end(src: str, i: int) -> int:
    """Offset of the '\\n' ending the physical line holding ``i`` (or len(src))."""
    j = src.find("\n", i)
    return len(src) if j < 0 else j


def logical_line_end(src: str, i: int) -> int:
    """End of the logical line holding ``i``: follows backslash-newline splices."""
    while True:
        j = line_end(src, i)
        k = j - 1
        if k >= 0 and src[k] == "\r":
            k -= 1
        if j < len(src) and k >= 0 and src[k] == "\\":
            i = j + 1
            continue
        return j


def at_line_start(src: str, i: int) -> bool:
    """True when only blanks precede ``i`` on its physical line."""
    j = i - 1
    while j >= 0 and src[j] in " \t\f\v":
        j -= 1
    return j < 0 or src[j] == "\n"


def skip_literal(src: str, i: int) -> int:
    """At a quote character: index just past the closing quote."""
    quote = src[i]
    j = i + 1
    n = len(src)
    while j < n:
        c = src[j]
        if c == "\\":
            j += 2
            continue
        if c == quote:
            return j + 1
        if c == "\n":
            break
        j += 1
    raise ScanError("unterminated string or character literal")


def skip_comment(src: str, i: int) -> int:
    """At '/*' or '//': index past the comment; ``i`` unchanged when there is none."""
    if src.startswith("/*", i):
        j = src.find("*/", i + 2)
        if j < 0:
            raise ScanError("unterminated comment")
        return j + 2
    if src.startswith("//", i):
        return logical_line_end(src, i)
    return i


def skip_trivia(src: str, i: int, *, preprocessor: bool = True) -> int:
    """Skip blanks, newlines, splices, comments and (optionally) preprocessor lines."""
    n = len(src)
    while i < n:
        c = src[i]
        if c in " \t\r\n\f\v":
            i += 1
        elif c == "\\" and src.startswith("\n", i + 1):
            i += 2
        elif c == "\\" and src.startswith("\r\n", i + 1):
            i += 3
        elif c == "/" and (src.startswith("/*", i) or src.startswith("//", i)):
            i = skip_comment(src, i)
        elif c == "#" and preprocessor and at_line_start(src, i):
            if directive_word(src, i) in ("else", "elif"):
                i = skip_inactive_branch(src, i)
            else:
                i = logical_line_end(src, i)
        else:
            break
    return i


def directive_word(src: str, i: int) -> str:
    """At a '#' that starts a preprocessor line: its directive (``if``, ``else``...)."""
    j = i + 1
    while j < len(src) and src[j] in " \t":
        j += 1
    return ident_at(src, j)


def skip_inactive_branch(src: str, i: int) -> int:
    """At an ``#else`` or ``#elif`` of a conditional whose taken branch holds the text
    being scanned (the parser saw that text, so its branch is the one compiled): past
    the matching ``#endif`` line. A loop header written twice, ``#if defined(_OPENMP)
    for (...) { #else for (...) { #endif body }``, then has one body."""
    depth = 0
    j = logical_line_end(src, i)
    while j < len(src):
        j += 1
        k = skip_trivia(src, j, preprocessor=False) if j < len(src) else j
        if k < len(src) and src[k] == "#" and at_line_start(src, k):
            word = directive_word(src, k)
            if word in ("if", "ifdef", "ifndef"):
                depth += 1
            elif word == "endif":
                if depth == 0:
                    return logical_line_end(src, k)
                depth -= 1
        j = logical_line_end(src, k)
    raise ScanError("#else or #elif without its #endif")


def ident_at(src: str, i: int) -> str:
    """The identifier starting at ``i`` ('' if none starts exactly there)."""
    if i >= len(src) or src[i] not in IDENT_CHARS or src[i].isdigit():
        return ""
    if i > 0 and src[i - 1] in IDENT_CHARS:
        return ""
    j = i
    while j < len(src) and src[j] in IDENT_CHARS:
        j += 1
    return src[i:j]


def match_bracket(src: str, i: int, end: int | None = None) -> int:
    """At an opening bracket: index just past its matching closer."""
    end = len(src) if end is None else end
    stack = [_OPEN[src[i]]]
    depth = 0  # conditionals opened after ``i``: their branches are unknown here
    j = i + 1
    while j < end:
        c = src[j]
        if c in "\"'":
            j = skip_literal(src, j)
            continue
        if c == "/" and (src.startswith("/*", j) or src.startswith("//", j)):
            j = skip_comment(src, j)
            continue
        if c == "#" and at_line_start(src, j):
            word = directive_word(src, j)
            if word in ("if", "ifdef", "ifndef"):
                depth += 1
            elif word == "endif":
                depth = max(0, depth - 1)
            elif word in ("else", "elif") and depth == 0:
                j = skip_inactive_branch(src, j)  # a second header of the one body
                continue
            j = logical_line_end(src, j)
            continue
        if c in _OPEN:
            stack.append(_OPEN[c])
        elif c in ")]}":
            if c != stack[-1]:
                raise ScanError(f"unbalanced '{c}'")
            stack.pop()
            if not stack:
                return j + 1
        j += 1
    raise ScanError("unbalanced brackets")


def _paren_after(src: str, i: int) -> int:
    j = skip_trivia(src, i)
    if j >= len(src) or src[j] != "(":
        raise ScanError("expected '('")
    return match_bracket(src, j)


def statement_end(src: str, i: int) -> int:
    """Index just past the C statement that starts at (or after trivia from) ``i``.

    Handles compound blocks, nested for/while/switch/if-else/do-while and
    simple statements up to their ';' (brackets balanced, so a compound
    literal or a ';' inside a string cannot end them early).
    """
    i = skip_trivia(src, i)
    if i >= len(src):
        raise ScanError("end of file where a statement was expected")
    c = src[i]
    if c == "{":
        return match_bracket(src, i)
    if c == ";":
        return i + 1
    word = ident_at(src, i)
    if word in ("for", "while", "switch"):
        return statement_end(src, _paren_after(src, i + len(word)))
    if word == "if":
        j = statement_end(src, _paren_after(src, i + 2))
        k = skip_trivia(src, j)
        if ident_at(src, k) == "else":
            return statement_end(src, k + 4)
        return j
    if word == "do":
        j = statement_end(src, i + 2)
        k = skip_trivia(src, j)
        if ident_at(src, k) != "while":
            raise ScanError("expected 'while' after a do body")
        k = skip_trivia(src, _paren_after(src, k + 5))
        if k >= len(src) or src[k] != ";":
            raise ScanError("expected ';' after do-while")
        return k + 1
    return _simple_statement_end(src, i)


def _simple_statement_end(src: str, i: int) -> int:
    n = len(src)
    j = i
    while j < n:
        c = src[j]
        if c == ";":
            return j + 1
        if c in "\"'":
            j = skip_literal(src, j)
        elif c in _OPEN:
            j = match_bracket(src, j)
        elif c in ")]}":
            raise ScanError(f"unexpected '{c}' before the end of a statement")
        elif c == "/" and (src.startswith("/*", j) or src.startswith("//", j)):
            j = skip_comment(src, j)
        else:
            j += 1
    raise ScanError("end of file inside a statement")

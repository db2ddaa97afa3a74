"""Inline assembly, which pycparser cannot read, made visible to the analysis.

An ``asm`` statement of the user's (``__asm__ __volatile__("incq %0" : "+m"(hits))``)
may read and write any memory its operands name, and the proof cannot see inside it:
erasing it, as a declaration's asm label may be, would let the proof call a loop
independent that the statement makes order-dependent. So each one becomes a call of
``ASM_CALL`` at the same place, which the proof keeps as an effect it cannot follow. In
the system headers (glibc's ``__asm__ ("" "__isoc99_fscanf")`` labels) and for a user's
label (``int f(void) __asm__("g");``) the text is erased, as before.
"""

from __future__ import annotations

import bisect
import re

ASM_CALL = "__autotune_asm__"

# blanks, and the line markers gcc puts inside a macro's expansion where a command-line
# macro is met (``__asm__ __volatile__`` of a system header's macro, with our
# -D__volatile__=volatile, comes out as three lines)
_GAP = r"(?:\s|(?<=\n)#[^\n]*)*"
_ASM = re.compile(
    rf"\b(?:__asm__|__asm|asm)\b((?:{_GAP}\b(?:volatile|__volatile__|__volatile|goto|inline|"
    rf"__inline__|__inline)\b)*){_GAP}\("
)
# a C string or character literal on one line (the preprocessor joined continued ones)
C_LITERAL = r"""("(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')"""
_LITERAL = re.compile(C_LITERAL)
_MARKER = re.compile(r'^# \d+ "([^"]*)"', re.MULTILINE)
_SYSTEM_PREFIX = "<"  # preprocess.SYSTEM_PREFIX and <built-in>: both start so


def replace_asm(text: str) -> str:
    """``text`` (preprocessed, line markers kept) with every asm statement of the user's
    a call of ``ASM_CALL`` and every other asm erased; line numbers are unchanged."""
    if not _ASM.search(text):
        return text
    starts, system = _regions(text)
    out: list[str] = []
    pos = 0
    braces = _BraceDepth(text)
    for m in _ASM.finditer(text):
        if m.start() < pos or in_literal(text, m.start()):
            continue
        end = closing_paren(text, m.end() - 1)
        if end is None:
            continue
        out.append(text[pos : m.start()])
        lines = line_breaks(text[m.start() : end])
        in_system = system[bisect.bisect_right(starts, m.start()) - 1] if starts else False
        if not in_system and _is_statement(text, m, end, braces):
            out.append(f"{ASM_CALL}(){lines}")
        else:
            out.append(lines)
        pos = end
    out.append(text[pos:])
    return "".join(out)


def line_breaks(span: str) -> str:
    """What stands for ``span`` besides its replacement: its line breaks, and the line
    markers among them, so that every line after it keeps its file and number."""
    return "".join("\n" + (line if line.startswith("#") else "") for line in span.split("\n")[1:])


def in_literal(text: str, at: int) -> bool:
    """``at`` lies inside a string or character literal of its line ("asm(%d)" in a
    format is no statement)."""
    line_start = text.rfind("\n", 0, at) + 1
    line_end = text.find("\n", at)
    line_end = len(text) if line_end < 0 else line_end
    for m in _LITERAL.finditer(text, line_start, line_end):
        if m.start() >= at:
            return False
        if at < m.end():
            return True
    return False


def _regions(text: str) -> tuple[list[int], list[bool]]:
    """Where each line marker's region starts, and whether it is a system header's."""
    starts, system = [], []
    for m in _MARKER.finditer(text):
        starts.append(m.start())
        system.append(m.group(1).startswith(_SYSTEM_PREFIX))
    return starts, system


class _BraceDepth:
    """The brace depth at an index of the text, counted (literals skipped) only as far as
    a question needs: inside a function body every asm is a statement (a basic
    ``asm("incl counter")`` may name a global), at file scope only what has the form of one."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.index = self.depth = 0

    def at(self, index: int) -> int:
        j, text = self.index, self.text
        while j < index:
            c = text[j]
            if c in "\"'":
                j = _literal_end(text, j, index)
            elif c == "{":
                self.depth += 1
            elif c == "}":
                self.depth = max(0, self.depth - 1)
            j += 1
        self.index = max(self.index, index)
        return self.depth


def _literal_end(text: str, j: int, limit: int) -> int:
    """The index of the quote that closes the literal opened at ``j`` (or ``limit``)."""
    quote, j = text[j], j + 1
    while j < limit and text[j] != quote:
        j += 2 if text[j] == "\\" else 1
    return j


def closing_paren(text: str, open_at: int) -> int | None:
    """The index after the parenthesis that closes the one at ``open_at``; string and
    character literals are skipped (an operand template may hold a parenthesis)."""
    depth, j = 0, open_at
    while j < len(text):
        c = text[j]
        if c in "\"'":
            j = _literal_end(text, j, len(text))
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    return None


def _is_statement(text: str, m: re.Match[str], end: int, braces: _BraceDepth) -> bool:
    """A statement, not a declaration's label (``int f(void) __asm__("g");``, ``register
    long r asm("r10");``): it has a qualifier or operands (a label is one string), or it
    stands where a statement starts, or (in a function body) after a condition's
    parenthesis rather than after a declarator's name."""
    inside = re.sub(r'"(?:\\.|[^"\\])*"', "", text[m.end() : end - 1])
    if m.group(1).strip() or ":" in inside:
        return True
    k = m.start() - 1
    while k >= 0 and text[k] in " \t\r\n":
        k -= 1
    if k < 0 or text[k] not in ";{}:)":
        return False
    if text[k] != ")":
        return True
    return braces.at(m.start()) > 0

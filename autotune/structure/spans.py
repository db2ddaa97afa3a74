"""Find the text of a construct in the user's file: where its timing begins and ends.

The tree comes from the preprocessed AST, but the timing code is inserted
into the user's own text (every other byte must survive), so each construct
is located again in the file: a directive by its line, the statement after it
with ``cscan.statement_end``, a plain statement by its line and column
(checked against the token expected there, since a macro earlier on the line
shifts columns after preprocessing).
"""

from __future__ import annotations

import re

from autotune.variants import cscan

_OMP_LINE = re.compile(r"[ \t]*#[ \t]*pragma[ \t]+omp\b(?P<rest>.*)")


class SpanError(ValueError):
    """The construct is not where the AST says (macro-generated, another file...)."""


class SourceText:
    """The user's file with its line table."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = cscan.line_starts(text)

    def line_of(self, offset: int) -> int:
        return cscan.line_of(self.starts, offset)

    def line_text(self, line: int) -> str:
        if not 1 <= line <= len(self.starts):
            return ""
        start = self.starts[line - 1]
        return self.text[start : cscan.line_end(self.text, start)]

    def pragma(self, line: int) -> tuple[int, int]:
        """(start of the line, end of the logical line) of the ``#pragma omp`` on ``line``."""
        if not 1 <= line <= len(self.starts):
            raise SpanError(f"line {line} is not in the file")
        start = self.starts[line - 1]
        if not _OMP_LINE.match(self.text, start):
            raise SpanError("the directive is not written on its line (produced by a macro?)")
        return start, cscan.logical_line_end(self.text, start)

    def statement_after(self, offset: int) -> tuple[int, int]:
        """(start, end) of the statement following ``offset`` (directives skipped)."""
        try:
            start = cscan.skip_trivia(self.text, offset)
            return start, cscan.statement_end(self.text, start)
        except cscan.ScanError as exc:
            raise SpanError(f"cannot find the statement: {exc}") from None

    def construct(self, pragma_line: int) -> tuple[int, int]:
        """(start of the directive line, end of the statement it governs).

        Directives stacked on following lines (``parallel`` then ``for``) are
        skipped as preprocessor lines, so the end is that of the statement.
        """
        start, end = self.pragma(pragma_line)
        return start, self.statement_after(end)[1]

    def statement_at(self, line: int, column: int, token: str | None) -> tuple[int, int]:
        """(start, end) of the statement that begins at ``line``:``column``.

        ``token`` is the identifier expected at its start (``for``, a callee,
        an lvalue name) or None when any is fine; when the column is off (a
        macro earlier on the line), the first such token on the line is used.
        """
        if not 1 <= line <= len(self.starts):
            raise SpanError(f"line {line} is not in the file")
        base = self.starts[line - 1]
        stop = cscan.line_end(self.text, base)
        guess = base + max(column - 1, 0)
        if guess < stop and (token is None or cscan.ident_at(self.text, guess) == token):
            start = guess
        else:
            start = self._first_token(base, stop, token)
        try:
            return start, cscan.statement_end(self.text, start)
        except cscan.ScanError as exc:
            raise SpanError(f"cannot find the end of the statement: {exc}") from None

    def _first_token(self, base: int, stop: int, token: str | None) -> int:
        i = cscan.skip_trivia(self.text, base, preprocessor=False)
        if token is None:
            if i < stop:
                return i
            raise SpanError("the statement is not written on its line")
        while i < stop:
            if cscan.ident_at(self.text, i) == token:
                return i
            i += 1
        raise SpanError(f"'{token}' is not written on its line (produced by a macro?)")

    def sections_parts(self, pragma_line: int) -> list[tuple[int, int]]:
        """(start, end) of each section of the ``sections`` directive on ``pragma_line``.

        A section is the statements between two ``#pragma omp section`` lines
        (the first one may omit its directive, as OpenMP allows).
        """
        _, end = self.pragma(pragma_line)
        text = self.text
        try:
            brace = cscan.skip_trivia(text, end)
            if brace >= len(text) or text[brace] != "{":
                raise SpanError("the sections body is not a { ... } block in the text")
            close = cscan.match_bracket(text, brace) - 1
            parts: list[list[int]] = []
            current: list[int] | None = None
            pos = brace + 1
            while True:
                i = cscan.skip_trivia(text, pos, preprocessor=False)
                if i >= close:
                    break
                if text[i] == "#":
                    line_end = cscan.logical_line_end(text, i)
                    m = _OMP_LINE.match(text, self.starts[self.line_of(i) - 1])
                    if m and m.group("rest").split()[:1] == ["section"]:
                        current = [-1, -1]
                        parts.append(current)
                    pos = line_end
                    continue
                stmt_end = cscan.statement_end(text, i)
                if current is None:
                    current = [-1, -1]
                    parts.append(current)
                if current[0] < 0:
                    current[0] = i
                current[1] = stmt_end
                pos = stmt_end
        except cscan.ScanError as exc:
            raise SpanError(f"cannot read the sections body: {exc}") from None
        return [(a, b) for a, b in parts if a >= 0]

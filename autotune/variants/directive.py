"""Find an OpenMP pragma in the user's text and rewrite only its schedule/num_threads clauses.

The front end reports directives after preprocessing (``Directive.text`` has
normalised spacing), but a variant must be the user's file byte for byte,
so the pragma is re-read from the file itself: located on its line,
followed over backslash continuations, its clause list re-tokenised with
balanced parentheses. Only the clause spans being changed are re-rendered
(through ``templates/directive.j2``); separators, comments, other clauses
and the number of physical lines stay as written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from autotune.frontend.directive_text import MACRO_RE, PRAGMA_RE, not_editable
from autotune.variants import cscan
from autotune.variants.errors import EmitError
from autotune.variants.templating import render

# Words that name the construct rather than start its clause list.
CONSTRUCT_WORDS = frozenset(
    "parallel for simd loop do teams distribute target taskloop masked master sections".split()
)
_PRAGMA_RE = PRAGMA_RE
_SPLICE_RE = re.compile(r"\\\r?\n")


@dataclass
class Clause:
    """One clause as written: ``name`` lower-cased, ``text`` verbatim (may hold splices)."""

    name: str
    start: int
    end: int
    text: str


@dataclass
class Pragma:
    """An ``#pragma omp`` directive located in the source text (absolute offsets)."""

    line: int
    start: int  # offset of the line holding '#'
    end: int  # offset of the '\n' ending the logical line (or len(source))
    construct: str  # e.g. "parallel for"
    names_end: int  # offset just past the last construct word
    clauses: list[Clause] = field(default_factory=list)
    # where the statement it governs may start: ``end`` for a #pragma line, just past
    # the closing parenthesis for a _Pragma("omp ...") literal (whose ``end`` is the quote)
    after: int = -1

    @property
    def statement_from(self) -> int:
        return self.after if self.after >= 0 else self.end

    def clause(self, name: str) -> Clause | None:
        return next((c for c in self.clauses if c.name == name), None)

    @property
    def insert_at(self) -> int:
        """Where a new clause goes: after the last clause, before any trailing comment."""
        return self.clauses[-1].end if self.clauses else self.names_end


def parse_pragma(source: str, starts: list[int], line: int, location: str) -> Pragma:
    """Read the ``#pragma omp`` that starts on ``line`` (1-based)."""
    if not 1 <= line <= len(starts):
        raise EmitError(f"line {line} is not in the file", location)
    start = starts[line - 1]
    m = _PRAGMA_RE.match(source, start)
    after = -1
    if m is not None:
        end = cscan.logical_line_end(source, start)
        names_end = m.end()
    else:
        names_end, end, after = _macro_directive(source, start, location)
    pragma = Pragma(line, start, end, "", names_end, after=after)
    m_end = names_end
    words: list[str] = []
    in_construct = True
    j = m_end
    while True:
        j = _skip_separators(source, j, end)
        if j >= end:
            break
        word = cscan.ident_at(source, j)
        if not word:
            raise EmitError(f"cannot read the directive near {source[j : j + 20]!r}", location)
        k = j + len(word)
        p = _skip_separators(source, k, end, commas=False)
        if p < end and source[p] == "(":
            try:
                k = cscan.match_bracket(source, p, end)
            except cscan.ScanError as exc:
                raise EmitError(f"cannot read the directive: {exc}", location) from exc
        elif in_construct and word in CONSTRUCT_WORDS:
            words.append(word)
            pragma.names_end = k
            j = k
            continue
        in_construct = False
        pragma.clauses.append(Clause(word.lower(), j, k, source[j:k]))
        j = k
    pragma.construct = " ".join(words)
    return pragma


def _macro_directive(source: str, start: int, location: str) -> tuple[int, int, int]:
    """(past "omp", the closing quote, past the call) of a directive written as a string
    literal (``_Pragma("omp for")``, ``OMP("omp for")``) on the line at ``start``."""
    line = source[start : cscan.line_end(source, start)]
    m = MACRO_RE.search(line)
    if m is None:
        raise EmitError(not_editable(line), location)
    quote = line.rindex('"', m.start(2), m.end())
    return start + m.end(2), start + quote, start + m.end()


def _skip_separators(src: str, i: int, end: int, *, commas: bool = True) -> int:
    """Blanks, splices, comments and (between clauses) commas, never past ``end``."""
    while i < end:
        c = src[i]
        if c in " \t\f\v\r" or (commas and c == ","):
            i += 1
        elif c == "\\" and _SPLICE_RE.match(src, i):
            i = _SPLICE_RE.match(src, i).end()
        elif src.startswith("/*", i) or src.startswith("//", i):
            i = min(cscan.skip_comment(src, i), end)
        else:
            break
    return i


@dataclass
class ClauseEdit:
    """What a variant changes on one pragma; None leaves that clause as written."""

    schedule: str | None = None  # static | dynamic | guided | auto | runtime
    chunk: int | str | None = None
    num_threads: str | None = None
    proc_bind: str | None = None  # close | spread

    @property
    def empty(self) -> bool:
        return self.schedule is None and self.num_threads is None and self.proc_bind is None

    def merge(self, other: ClauseEdit, location: str) -> ClauseEdit:
        """Combine the edits two loops ask of one pragma (a shared parallel region)."""
        out = ClauseEdit(self.schedule, self.chunk, self.num_threads, self.proc_bind)
        if other.proc_bind is not None:
            if out.proc_bind is not None and out.proc_bind != other.proc_bind:
                raise EmitError(
                    "loops sharing one parallel region ask for different thread bindings", location
                )
            out.proc_bind = other.proc_bind
        if other.schedule is not None:
            if out.schedule is not None and (out.schedule, out.chunk) != (
                other.schedule,
                other.chunk,
            ):
                raise EmitError("two choices set different schedules on one directive", location)
            out.schedule, out.chunk = other.schedule, other.chunk
        if other.num_threads is not None:
            if out.num_threads is not None and out.num_threads != other.num_threads:
                raise EmitError(
                    "loops sharing one parallel region ask for different thread counts", location
                )
            out.num_threads = other.num_threads
        return out


def rewrite(source: str, pragma: Pragma, edit: ClauseEdit) -> str:
    """New text for ``source[pragma.start:pragma.end]`` with the edit applied.

    A replaced clause keeps its place; a new one is appended after the last
    clause. Line splices inside a replaced clause are re-emitted after it so
    the directive keeps its number of physical lines.
    """
    wanted: dict[str, dict] = {}
    if edit.schedule is not None:
        wanted["schedule"] = {"kind": "schedule", "schedule": edit.schedule, "chunk": edit.chunk}
    if edit.num_threads is not None:
        wanted["num_threads"] = {"kind": "num_threads", "expr": edit.num_threads}
    if edit.proc_bind is not None:
        wanted["proc_bind"] = {"kind": "proc_bind", "policy": edit.proc_bind}
    parts: list[dict] = []
    pos = pragma.start
    for clause in pragma.clauses:
        if clause.name not in wanted:
            continue
        parts.append({"kind": "text", "text": source[pos : clause.start]})
        splices = _SPLICE_RE.findall(clause.text)
        tail = "".join(" " + s for s in splices)
        parts.append({**wanted.pop(clause.name), "lead": "", "tail": tail})
        pos = clause.end
    insert_at = pragma.insert_at
    if wanted:
        parts.append({"kind": "text", "text": source[pos:insert_at]})
        pos = insert_at
        for name in ("schedule", "num_threads", "proc_bind"):
            if name in wanted:
                parts.append({**wanted[name], "lead": " ", "tail": ""})
    parts.append({"kind": "text", "text": source[pos : pragma.end]})
    return render("directive.j2", parts=parts)


def flat_text(pragma_text: str) -> str:
    """One-line form of a (possibly continued) pragma, for manifests and messages."""
    return " ".join(_SPLICE_RE.sub(" ", pragma_text).split())

"""Timing instrumentation of one worksharing loop, as text insertions into the user's file.

The loop is wrapped in a block that reads ``omp_get_wtime()``/``clock()``
before the directive and accumulates after the statement; helper functions
go at the end of the file and write the side-channel line at exit (see
docs/timing.md). Inserted lines are followed by ``#line`` so
every user line keeps its number in compiler diagnostics.

Modes (chosen from the worksharing pragma as written):
- ``combined`` (``parallel for``): the encountering thread times the whole
  construct, fork and join included; accumulation is under a named critical
  so a ``parallel for`` met by several threads of an outer region is safe.
- ``for`` (``omp for`` in a region): thread 0 reads the start, then a barrier
  lines all threads up (so no thread starts the loop before that reading, even
  if thread 0 is descheduled after the barrier while the others take every
  dynamic chunk), and after the loop's own implicit barrier thread 0 reads the
  end, so the interval covers every thread's share.
- ``for_nowait``: the same start barrier, but no barrier is added after the
  loop (that would undo ``nowait``): each thread accumulates its own time
  from the barrier to leaving the loop and the slowest thread's total is
  reported. That equals the loop time for one execution and is a close lower
  bound over many (sum of maxima >= max of sums). The start barrier itself
  removes any overlap of this loop with nowait work before it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from autotune.frontend.records import LoopRecord
from autotune.variants import cscan
from autotune.variants.directive import Pragma
from autotune.variants.errors import EmitError
from autotune.variants.templating import render


def c_string(text: str) -> str:
    """``text`` escaped for the inside of a C string literal."""
    out = []
    for ch in text:
        if ch in '\\"':
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ord(ch) < 32:
            out.append(f"\\{ord(ch):03o}")
        else:
            out.append(ch)
    return "".join(out)


@dataclass
class Insertion:
    """Text to insert at ``offset`` of the original source; ``rank`` orders ties."""

    offset: int
    text: str
    rank: int = 0


def loop_mode(pragma: Pragma) -> str:
    if pragma.construct.split()[:1] == ["parallel"]:
        return "combined"
    return "for_nowait" if pragma.clause("nowait") else "for"


_CALL = re.compile(r"\b(?!sizeof\b)[A-Za-z_]\w*\s*\(")
_SIDE_EFFECT = re.compile(r"(?<![=!<>])=(?!=)|\+\+|--")
_SPLICE = re.compile(r"\\\r?\n")


def side_effect_free(text: str) -> bool:
    """No call and no assignment: a copy of ``text`` evaluated once more (a profile run
    reading it at a loop's entry) changes nothing the program does."""
    return not (_CALL.search(text) or _SIDE_EFFECT.search(text))


def _argument(pragma: Pragma, name: str) -> str | None:
    """The argument of the pragma's clause ``name`` ('' when it has none, None when it
    cannot be read again safely); an ``if`` may carry the ``parallel:`` modifier."""
    clause = pragma.clause(name)
    if clause is None:
        return ""
    text = _SPLICE.sub(" ", clause.text)
    inside = text[text.find("(") + 1 : text.rfind(")")].strip()
    if name == "if" and ":" in inside and "?" not in inside:
        modifier, inside = (part.strip() for part in inside.split(":", 1))
        if modifier != "parallel":
            return None
    return inside if inside and side_effect_free(inside) else None


def team_mode(pragma: Pragma) -> tuple[int, str, str]:
    """How a profile build reads the threads of the loop's team (``autotune_team_``):
    (1, ...) inside its region; (2, requested, enabled) for a combined construct, with
    its num_threads and if arguments ('0' and '1' when absent); (0, ...), not read,
    where an argument cannot be evaluated once more."""
    if loop_mode(pragma) != "combined":
        return 1, "0", "1"
    requested, enabled = _argument(pragma, "num_threads"), _argument(pragma, "if")
    if requested is None or enabled is None:
        return 0, "0", "1"
    return 2, requested or "0", enabled or "1"


def find_for(source: str, starts: list[int], pragma: Pragma, record: LoopRecord) -> tuple[int, int]:
    """(start, end) offsets of the ``for`` statement the worksharing pragma governs.

    OpenMP requires the loop to follow its directive, so the scan starts at the
    pragma's end rather than at ``record.column`` (a column counted after
    macro expansion need not match the text). The line must agree with
    ``record.line``: a mismatch means the file changed since it was analysed.
    """
    location = f"{record.file}:{record.line}"
    try:
        i = cscan.skip_trivia(source, pragma.statement_from)
    except cscan.ScanError as exc:
        raise EmitError(f"cannot read the text after the directive: {exc}", location) from exc
    if cscan.ident_at(source, i) != "for":
        raise EmitError(
            "the loop's 'for' is not in the text after its directive (is it produced by a macro?)",
            location,
        )
    line = cscan.line_of(starts, i)
    if record.line and line != record.line:
        raise EmitError(
            f"expected the loop's 'for' on line {record.line} but it is on line {line}; "
            "was the file changed since it was analysed?",
            location,
        )
    try:
        end = cscan.statement_end(source, i)
    except cscan.ScanError as exc:
        raise EmitError(f"cannot find the end of the for statement: {exc}", location) from exc
    return i, end


def loop_insertions(
    source: str,
    starts: list[int],
    pragma: Pragma,
    record: LoopRecord,
    slot: int,
    profile: list[str] | None = None,
    inner: dict | None = None,
) -> list[Insertion]:
    """The begin/end insertions timing one loop (``pragma`` is its worksharing directive);
    ``profile``: C expressions whose values at the loop's entry a profile run records."""
    mode = loop_mode(pragma)
    start, end = find_for(source, starts, pragma, record)
    file = c_string(record.file)
    begin = render(
        "timing_begin.c.j2",
        slot=slot,
        mode=mode,
        line=pragma.line,
        file=file,
        profile=profile,
        team=team_mode(pragma),
        inner=inner,
    )
    finish = render(
        "timing_end.c.j2", slot=slot, mode=mode, line=cscan.line_of(starts, end), file=file
    )
    # An inner loop's end text must precede an outer one ending at the same offset.
    return [Insertion(starts[pragma.line - 1], begin, 0), Insertion(end, finish, -start)]


def prelude(file: str, *, instrument: bool, runtime: bool) -> str:
    return render("prelude.c.j2", file=c_string(file), instrument=instrument, runtime=runtime)


_DEFINE_RE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)", re.MULTILINE)


def user_macros(source: str) -> list[str]:
    """Macro names the user's file defines: the helpers appended after it must not
    see them (STREAM's ``#define abs(a) ...`` broke ``<stdlib.h>`` when the helpers
    included it; they include no header now, ``templates/library_decls.c.j2``). The
    user's code is above the helpers, so undefining its macros there changes nothing
    the user wrote.
    """
    return sorted(set(_DEFINE_RE.findall(source)))


def epilogue(source: str, loop_ids: list[str], *, instrument: bool, runtime: bool) -> str:
    text = render(
        "epilogue.c.j2",
        loops=[c_string(i) for i in loop_ids],
        instrument=instrument,
        runtime=runtime,
        undefs=user_macros(source),
    )
    return text if source.endswith("\n") or not source else "\n" + text

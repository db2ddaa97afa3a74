"""What the directives as the user wrote them allow: clauses the compiler is asked about,
macro invocations rewritten at their use site, and lines that cannot be edited as text.

The analysis proper reads the preprocessed program; these checks read the user's own
lines (``directive_text``) and, where a directive is not what OpenMP defines, ask the
compiler, so that a file gcc rejects is gcc's error and one it accepts keeps its loop.
"""

from __future__ import annotations

import os

from autotune.errors import CompilerRejects
from autotune.frontend.cparse import compiler_syntax_error
from autotune.frontend.directive_text import (
    directive_line,
    macro_site,
    materialize,
    not_editable,
)
from autotune.frontend.finder import FoundLoop
from autotune.frontend.options import SourceOptions
from autotune.frontend.preprocess import same_program
from autotune.frontend.records import LoopRecord
from autotune.textfile import read_source

SCHEDULE_KINDS = ("static", "dynamic", "guided", "auto", "runtime")
# the clauses OpenMP 5.2 defines for the constructs a worksharing loop is written with
# (parallel, for, simd, their combinations, taskloop, distribute, teams): any other word
# is one the compiler is asked about
KNOWN_CLAUSES = frozenset(
    """private firstprivate lastprivate linear reduction schedule collapse ordered nowait
    allocate order num_threads if default shared copyin proc_bind safelen simdlen aligned
    nontemporal grainsize num_tasks untied mergeable final priority nogroup in_reduction
    dist_schedule num_teams thread_limit device map is_device_ptr defaultmap depend
    bind uses_allocators has_device_addr""".split()
)


def check_clauses(path: str, options: SourceOptions, cc: str, loops: list[FoundLoop]) -> None:
    """A directive with a schedule kind OpenMP does not define: the compiler's own verdict
    (CompilerRejects with its message when it rejects the file, as a user expects of a
    file that does not compile); one it accepts goes on, its loop kept as written."""
    odd = [
        f
        for f in loops
        for d in (f.directive, f.parallel)
        if d is not None
        and (
            (d.clauses.schedule or "static") not in SCHEDULE_KINDS
            or any(_clause_word(item) not in KNOWN_CLAUSES for item in d.clauses.other)
        )
    ]
    if not odd:
        return
    said = compiler_syntax_error(path, options, cc)
    if said:
        raise CompilerRejects(said)


def _clause_word(item: str) -> str:
    """The clause's name (``num_tasks`` of ``num_tasks(4)``), lower-cased."""
    return item.split("(", 1)[0].strip().lower()


def macro_sites(
    path: str, options: SourceOptions, cc: str, loops: list[LoopRecord], sources: dict
) -> set[int]:
    """Lines of ``path`` whose directive is a macro invocation (``PRAGMA(omp for)``,
    ``OMP_FOR(schedule(static))``) that may be rewritten at the use site: the line holds
    only the invocation, and the preprocessor makes the same program when it is replaced
    by the ``_Pragma`` it expands to (checked with the user's flags, each line alone when
    all together do not)."""
    wanted: dict[int, str] = {}
    for record in loops:
        for d in (record.directive, record.parallel):
            if d is None or not same_path(d.file, path):
                continue
            text = directive_line(d.file, d.line, sources)
            if text is not None and not_editable(text) and macro_site(text) is not None:
                wanted[d.line] = d.text
    if not wanted:
        return set()
    original = read_source(path)
    if same_program(path, options, cc, original, materialize(original, wanted)):
        return set(wanted)
    return {
        line
        for line, text in wanted.items()
        if same_program(path, options, cc, original, materialize(original, {line: text}))
    }


def same_path(a: str, b: str) -> bool:
    return os.path.abspath(a) == os.path.abspath(b)


def refuse_unwritable(record, sources: dict) -> None:  # a LoopRecord
    """A loop whose directives (its own, its region's) cannot be edited as text is not
    tunable, and says why (its reason, not a header warning)."""
    kind = record.directive.clauses.schedule or "static"
    if kind not in SCHEDULE_KINDS:  # the compiler accepted it: an extension we do not know
        record.tunable = False
        why = f"schedule kind {kind!r} is not one OpenMP defines: its meaning is unknown here"
        record.reason = "; ".join(p for p in (record.reason, why) if p)
        return
    for d in (record.directive, record.parallel):
        if d is None:
            continue
        text = directive_line(d.file, d.line, sources)
        why = not_editable(text) if text is not None else ""
        if why and d.line in record.directive_sites and same_path(d.file, record.file):
            continue  # rewritten at the use site
        if why:
            record.tunable = False
            record.reason = "; ".join(p for p in (record.reason, f"line {d.line}: {why}") if p)
            return

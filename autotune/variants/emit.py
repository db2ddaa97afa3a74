"""Emission API (see docs/timing.md): variant programs from the user's text.

Everything is a text edit of the original file: directive clause spans are
re-rendered, timing code is inserted around the loop, helpers go before the
first and after the last user line, a loop proven only above some size is
versioned (``if (guard)`` the edited loop, ``else`` the loop as written), and
``#line`` directives keep every user line at its original number. Nothing else
in the file changes.
"""

from __future__ import annotations

from collections.abc import Sequence

from autotune.frontend.constants import int_constant
from autotune.frontend.directive_text import materialize
from autotune.frontend.records import LoopRecord
from autotune.variants import cscan, instrument
from autotune.variants.directive import ClauseEdit, Pragma, flat_text, parse_pragma, rewrite
from autotune.variants.errors import EmitError
from autotune.variants.space import BINDINGS, SCHEDULES, Variant

__all__ = ["EmitError", "emit_variant", "emit_runtime", "runtime_env", "rewrite_source"]


def _location(record: LoopRecord, line: int | None = None) -> str:
    return f"{record.file}:{line if line is not None else record.line}"


def check_variant(record: LoopRecord, variant: Variant) -> None:
    """Reject variants that are not valid OpenMP or that this loop cannot take."""
    loc = _location(record)
    if variant.is_baseline:
        return
    if not record.tunable and not record.only_size_unknown:
        raise EmitError(f"loop is not tunable: {record.reason or 'no reason given'}", loc)
    for dim, changed in (
        ("schedule", variant.schedule is not None),
        ("threads", variant.threads is not None),
    ):
        if changed and dim in record.kept and not (dim == "threads" and record.region_threads):
            raise EmitError(f"the {dim} of this loop is kept as written: {record.kept[dim]}", loc)
    if variant.schedule is not None and variant.schedule not in SCHEDULES:
        raise EmitError(f"unknown schedule {variant.schedule!r}", loc)
    if variant.chunk is not None:
        if variant.schedule is None:
            raise EmitError("a chunk size needs a schedule kind", loc)
        if variant.schedule == "auto":
            raise EmitError("schedule(auto) takes no chunk size", loc)
        if variant.chunk < 1:
            raise EmitError(f"chunk size {variant.chunk} must be at least 1", loc)
    if variant.bind is not None:
        if variant.bind not in BINDINGS:
            raise EmitError(f"unknown thread binding {variant.bind!r}", loc)
        if record.parallel is None:
            raise EmitError(
                "this 'omp for' has no enclosing parallel directive in its "
                "function, so its threads cannot be bound",
                loc,
            )
    if variant.threads is not None:
        if variant.threads < 1:
            raise EmitError(f"thread count {variant.threads} must be at least 1", loc)
        if record.parallel is None:
            raise EmitError(
                "this 'omp for' has no enclosing parallel directive in its function, "
                "so its thread count cannot be set",
                loc,
            )


class _Source:
    """The user's text with its line table and the pragmas parsed so far."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = cscan.line_starts(text)
        self._pragmas: dict[int, Pragma] = {}

    def pragma(self, line: int, location: str, *, want: str) -> Pragma:
        if line not in self._pragmas:
            self._pragmas[line] = parse_pragma(self.text, self.starts, line, location)
        p = self._pragmas[line]
        words = p.construct.split()
        ok = ("for" in words or "do" in words) if want == "for" else words[:1] == ["parallel"]
        if not ok:
            shown = flat_text(self.text[p.start : p.statement_from])
            raise EmitError(f"expected an omp {want} directive here, found {shown!r}", location)
        return p


def _num_threads_expr(src: _Source, record: LoopRecord) -> str:
    """Runtime thread count: env AUTOTUNE_NUM_THREADS, else what the directive would use.

    The fallback is the user's own num_threads expression, or 0, which the
    helper turns into omp_get_max_threads() (declared only at the end of the
    file, so it cannot be called from the user's lines directly).
    """
    if record.parallel is None:  # only loops with a parallel directive get here
        raise EmitError(f"{record.id}: no parallel directive to give a thread count")
    loc = _location(record, record.parallel.line)
    clause = src.pragma(record.parallel.line, loc, want="parallel").clause("num_threads")
    fallback = "0"
    if clause is not None:
        inner = clause.text[clause.text.index("(") + 1 : clause.text.rindex(")")]
        fallback = f"({' '.join(inner.split())})"
    return f"autotune_threads_({fallback})"


# Over 60 lines: every edit of every loop collected in one pass, so overlaps show in one place.
def rewrite_source(
    source: str,
    choices: list[tuple[LoopRecord, Variant]],
    *,
    instrumented: Sequence[LoopRecord] = (),
    runtime: Sequence[LoopRecord] = (),
    share_of: int | None = None,
    profile: dict[str, list[str]] | None = None,
    inner: dict[str, dict] | None = None,
) -> str:
    """The general edit: apply variant choices, runtime loops and instrumentation at once.

    ``share_of``: write each chosen thread count T as the same share of the cores the
    program finds at run time, ``ceil(T * omp_get_num_procs() / share_of)`` (``share_of``
    = the cores it was tuned on), so a tuned program stays sensible on a bigger machine
    and is unchanged on this one.
    """
    everyone = [*(r for r, _ in choices), *instrumented, *runtime]
    sites = {line: text for r in everyone for line, text in r.directive_sites.items()}
    source = materialize(source, sites)  # macro directives as the _Pragma they make
    src = _Source(source)
    edits: dict[int, tuple[Pragma, ClauseEdit]] = {}
    guarded: dict[int, LoopRecord] = {}  # directive line -> a loop varied behind its guard

    def add(line: int, location: str, want: str, edit: ClauseEdit) -> None:
        pragma = src.pragma(line, location, want=want)
        if line in edits:
            edit = edits[line][1].merge(edit, location)
        edits[line] = (pragma, edit)

    for record, variant in [*choices, *((r, None) for r in runtime)]:
        if record.guard and (variant is None or not variant.is_baseline):
            guarded[record.directive.line] = record
    for record, variant in choices:
        check_variant(record, variant)
        if variant.schedule is not None:
            ws = record.directive.line
            add(ws, _location(record, ws), "for", ClauseEdit(variant.schedule, variant.chunk))
        if variant.threads is not None:
            par = record.parallel.line
            edit = ClauseEdit(num_threads=_threads_text(variant.threads, share_of))
            add(par, _location(record, par), "parallel", edit)
        if variant.bind is not None:
            par = record.parallel.line
            add(par, _location(record, par), "parallel", ClauseEdit(proc_bind=variant.bind))
    for record in runtime:
        ws = record.directive.line
        add(ws, _location(record, ws), "for", ClauseEdit("runtime"))
        if record.parallel is not None:
            par = record.parallel.line
            expr = _num_threads_expr(src, record)
            add(par, _location(record, par), "parallel", ClauseEdit(num_threads=expr))

    insertions: list[instrument.Insertion] = []
    for slot, record in enumerate(instrumented):
        ws = record.directive.line
        pragma = src.pragma(ws, _location(record, ws), want="for")
        insertions += instrument.loop_insertions(
            source,
            src.starts,
            pragma,
            record,
            slot,
            None if profile is None else profile.get(record.id, []),
            (inner or {}).get(record.id),
        )

    body = _splice(source, insertions, edits, _versioned(src, edits, guarded))

    extras = bool(instrumented) or bool(runtime)
    if share_of and not extras and any(v.threads is not None for _, v in choices):
        # one declaration (compatible with omp.h's), then the user's lines keep their numbers
        return (
            f"int omp_get_num_procs(void); /* autotune: thread counts are shares of the "
            f"{share_of} cores tuned on */\n#line 1\n" + body
        )
    if not extras:
        return body
    file = (instrumented or runtime)[0].file
    head = instrument.prelude(file, instrument=bool(instrumented), runtime=bool(runtime))
    tail = instrument.epilogue(
        source, [r.id for r in instrumented], instrument=bool(instrumented), runtime=bool(runtime)
    )
    return head + body + tail


def _versioned(
    src: _Source, edits: dict[int, tuple[Pragma, ClauseEdit]], guarded: dict[int, LoopRecord]
) -> dict[int, tuple[int, int, str]]:
    """Loop versioning for loops proven only at sizes the guard tests: the edited loop
    when the guard holds, the loop as written otherwise, every user line at its number.
    Keyed by directive line: (start, end, text) replacing the directive and its loop."""
    out: dict[int, tuple[int, int, str]] = {}
    for line, record in guarded.items():
        if line not in edits or edits[line][1].empty:
            continue
        pragma, edit = edits[line]
        start = src.starts[line - 1]
        _for, end = instrument.find_for(src.text, src.starts, pragma, record)
        text = src.text
        edited = text[start : pragma.start] + rewrite(text, pragma, edit) + text[pragma.end : end]
        last = cscan.line_of(src.starts, end)
        out[line] = (
            start,
            end,
            f"if ({record.guard}) {{ /* autotune: proven where this test holds */\n#line {line}\n"
            f"{edited}\n}} else {{\n#line {line}\n{text[start:end]}\n}}\n#line {last}\n",
        )
    return out


def _splice(
    source: str,
    insertions: list[instrument.Insertion],
    edits: dict[int, tuple[Pragma, ClauseEdit]],
    versioned: dict[int, tuple[int, int, str]] | None = None,
) -> str:
    """Walk the original text once: insertions before replacements at equal offsets."""
    ops: list[tuple[int, int, int, int, str]] = []  # (offset, kind, rank, end, text)
    for ins in insertions:
        ops.append((ins.offset, 0, ins.rank, ins.offset, ins.text))
    for start, end, text in (versioned or {}).values():
        ops.append((start, 1, 0, end, text))
    for line, (pragma, edit) in edits.items():
        if not edit.empty and line not in (versioned or {}):
            ops.append((pragma.start, 1, 0, pragma.end, rewrite(source, pragma, edit)))
    ops.sort(key=lambda o: (o[0], o[1], o[2]))
    out: list[str] = []
    pos = 0
    for offset, _kind, _rank, end, text in ops:
        if offset < pos:
            raise EmitError("overlapping edits (nested instrumented loops?)")
        out.append(source[pos:offset])
        out.append(text)
        pos = end
    out.append(source[pos:])
    return "".join(out)


def _threads_text(threads: int, share_of: int | None) -> str:
    if not share_of:
        return str(threads)
    if threads == share_of:
        return "omp_get_num_procs()"
    return f"({threads} * omp_get_num_procs() + {share_of - 1}) / {share_of}"


def emit_variant(
    source: str, record: LoopRecord, variant: Variant, *, instrument: bool = True
) -> str:
    """The user's file as ``variant`` of ``record``'s loop, timed when ``instrument``."""
    return rewrite_source(source, [(record, variant)], instrumented=[record] if instrument else [])


def emit_runtime(source: str, record: LoopRecord, *, instrument: bool = True) -> str:
    """One program for many variants: ``schedule(runtime)`` and num_threads from env.

    Run it with ``runtime_env(variant, record)``. Without AUTOTUNE_NUM_THREADS
    the thread count is the user's own num_threads expression, or
    omp_get_max_threads() when there was none. Instrumented and runtime
    programs need ``-fopenmp`` (the helpers include omp.h and call it).
    """
    if not record.tunable:
        raise EmitError(
            f"loop is not tunable: {record.reason or 'no reason given'}", _location(record)
        )
    return rewrite_source(source, [], instrumented=[record] if instrument else [], runtime=[record])


def _why_own(record: LoopRecord) -> str:
    """Why no OMP_SCHEDULE can stand for a variant's clause (``LoopRecord.own_binaries``)."""
    if "schedule" in record.kept:
        return "its schedule is kept as written"
    if record.sets_schedule:
        return "the program calls omp_set_schedule"
    if record.reads_schedule:
        return "the program reads its run-time schedule"
    return "the program's other schedule(runtime) loops would run it too"


def runtime_env(variant: Variant, record: LoopRecord | None = None) -> dict[str, str]:
    """Environment making the ``emit_runtime`` program run as ``variant``.

    OMP_SCHEDULE is always set: with ``schedule(runtime)`` an unset variable
    means the runtime's default (libgomp: dynamic,1), not "as written". For a
    variant that keeps the schedule (``schedule`` None, e.g. the baseline),
    pass ``record`` so the schedule as written can be reproduced; a written
    chunk that is not a plain number cannot go into the environment, so that
    raises EmitError (compile that variant with ``emit_variant`` instead).
    """
    if record is not None and record.own_binaries:
        raise EmitError(
            f"this loop's variants are compiled each with its own clause ({_why_own(record)})",
            _location(record),
        )
    sched, chunk = variant.schedule, variant.chunk
    if sched is None:
        written = record.directive.clauses if record is not None else None
        sched = written.schedule if written and written.schedule else "static"
        if sched == "runtime":  # as written = whatever OMP_SCHEDULE the caller has
            env: dict[str, str] = {}
            if variant.threads is not None:
                env["AUTOTUNE_NUM_THREADS"] = str(variant.threads)
            return env
        chunk_text = written.chunk if written else None
        if chunk_text is not None:
            chunk = int_constant(chunk_text)
            if chunk is None:
                raise EmitError(
                    f"the written chunk {chunk_text!r} is not a number; "
                    "build this variant with emit_variant",
                    _location(record) if record else None,
                )
    env = {"OMP_SCHEDULE": sched if chunk is None else f"{sched},{chunk}"}
    if variant.threads is not None:
        env["AUTOTUNE_NUM_THREADS"] = str(variant.threads)
    if variant.bind is not None:
        env.update(OMP_PROC_BIND=variant.bind, OMP_PLACES="cores")
    return env

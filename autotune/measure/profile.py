"""One instrumented run of the original fills in what the source cannot tell.

A loop sized at run time (``i < n`` with ``n`` from argv, ``in.lookups``,
``grid->nx``) has no trip count in the source. The original is built once with
its usual timing instrumentation plus, at each OpenMP loop's entry, the values
of the bound expressions of its nest (and of every variable or struct field in
them) that do not depend on a loop variable, and the threads of the team that runs
it (a program may choose its own: ``omp_set_num_threads(nthreads)`` from its
options); it runs once with the user's arguments, working directory and
environment. The values (first, smallest and largest over the loop's executions)
and how many times each loop ran come back through the timing side channel. The
front end then analyses the loop with those values standing in
(``LoopRecord.facts = "profile"``, ``LoopRecord.team``).

The profile is stored in the database, keyed by the source's content hash, the
build flags and the arguments, so it is made once.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from autotune.analysis.tripcount import count_scalar
from autotune.errors import UserError
from autotune.frontend.records import LoopRecord
from autotune.measure.build import BuildOptions
from autotune.measure.run import openmp_settings, run_program
from autotune.variants.instrument import side_effect_free

PROFILE_TAG = "autotune-profile"
INNER_TAG = "autotune-inner"
VALUES_TAG = "autotune-values"  # each value over the first 255 executions (for a median)
MAX_EXPRESSIONS = 48  # per loop (the C side keeps as many, and the team after them)
_CHAIN = re.compile(r"[A-Za-z_]\w*(?:\s*(?:\.|->)\s*[A-Za-z_]\w*)*")
_KEYWORDS = frozenset("sizeof int long short char unsigned signed double float const".split())


@dataclass
class ProfileRequest:
    """What to build and run: the program, its build and how to run it."""

    path: Path
    source: str
    build: BuildOptions
    args: list[str]
    cwd: str | None = None
    timeout_s: float = 600.0
    stdin: str | None = None  # a file given as the program's standard input
    expect_status: int = 0  # the program's exit status by design


def expressions(record: LoopRecord, minimal: bool = False) -> list[str]:
    """Bound texts of the loop's nest free of loop variables, and the names in them.
    ``minimal``: the distributed loops' own bounds alone (what sizes the trip count), for
    a profile build that failed on another text."""
    # a name declared inside the nest (a loop variable, a local of the body) does not
    # exist yet at the loop's entry
    loop_vars = {lv.var for lv in [*record.enclosing, *record.nest] if lv.var != "?"}
    loop_vars |= set(record.nest_locals)
    own = max(1, record.directive.clauses.collapse or 1)  # the distributed levels
    levels = record.nest[:own] if minimal else record.nest
    texts = [t for level in levels for t in (level.lower, level.upper, level.step_text) if t]
    # the other loops of the body (a merge loop under a lock, a second sweep): their
    # bounds too, unless the loop itself may change them
    inner = [] if minimal else [lvl for body in record.op_bodies for lvl in body["levels"][1:]]
    fixed = loop_vars | {lvl.get("var") or "" for lvl in inner} | set(record.nest_written)
    extra = [t for lvl in inner for t in (lvl.get("lower"), lvl.get("upper")) if t]
    out: list[str] = []
    for text, exclude in [*((t, loop_vars) for t in texts), *((t, fixed) for t in extra)]:
        if not _evaluable(text, exclude):
            continue
        text = _unwrapped(text)
        out.append(" ".join(text.split()))
        types = {w for cast in _CAST.finditer(text) for w in cast.group(1).split()}
        for m in _CHAIN.finditer(text):
            name = m.group()
            if _MEMBER_BEFORE.search(text[: m.start()]):
                continue  # a member of what comes before (``a[2].n``): no name of its own
            if name in types:
                continue  # the type of a cast (``(uint64_t) n``): not a value to print
            if name.split(".")[0].split("-")[0].strip() not in _KEYWORDS:
                out.append(re.sub(r"\s+", "", name))
    out += [] if minimal else [t for t in record.proof_sizes if _evaluable(t, loop_vars)]
    out = [e for e in dict.fromkeys(out) if not e.isdigit()]
    if minimal or not record.guard:
        return out[:MAX_EXPRESSIONS]
    # the run-time test the variants stand behind, evaluated where they evaluate it:
    # the run says whether they would run at all (``guard`` of the loop's profile)
    return [*out[: MAX_EXPRESSIONS - 1], record.guard]


INNER_SAMPLES = 2048  # outer iterations sampled for a data-dependent inner loop


def inner_plan(record: LoopRecord) -> dict | None:
    """How to sample a data-dependent inner loop's trip count per outer iteration.

    For ``for (r = lo; r < hi; r++) for (k = P[r]; k < P[r+1]; k++)`` (CSR rows,
    ragged lists): the outer bounds must be evaluable at entry, the inner
    bounds must name only the outer variable (besides what exists at entry),
    and both steps must be known. The C side evaluates the inner bounds at up
    to ``INNER_SAMPLES`` evenly spaced outer iterations, before the loop runs.
    """
    if len(record.nest) < 2 or max(1, record.directive.clauses.collapse or 1) > 1:
        return None
    outer, inner = record.nest[0], record.nest[1]
    if outer.op not in ("<", "<=") or not outer.step or outer.step < 1 or not inner.step:
        return None
    others = {lv.var for lv in [*record.enclosing, *record.nest]} - {outer.var}
    others |= set(record.nest_locals)
    texts = [outer.lower, outer.upper]
    if not all(_evaluable(t, others | {outer.var}) for t in texts):
        return None
    if not all(_evaluable(t, others) for t in (inner.lower, inner.upper)):
        return None
    if not any(re.search(rf"\b{re.escape(outer.var)}\b", t) for t in (inner.lower, inner.upper)):
        return None  # not data-dependent on the outer iteration: the analysis has it

    def at(text: str) -> str:
        return re.sub(rf"\b{re.escape(outer.var)}\b", "autotune_pi_", text)

    return {
        "lo": outer.lower,
        "hi": outer.upper,
        "inclusive": outer.op == "<=",
        "step": outer.step,
        "inner_lo": at(inner.lower),
        "inner_hi": at(inner.upper),
        "inner_op": inner.op,
        "inner_step": inner.step,
        "samples": INNER_SAMPLES,
    }


# a cast: words (and stars) in parentheses followed by an operand, ``(uint64_t) n``,
# ``(unsigned long)(x)``; its words are types, never values at the loop's entry
_CAST = re.compile(r"\(\s*((?:[A-Za-z_]\w*\s*)+)\**\s*\)\s*(?=[A-Za-z_0-9(])")
_PAREN_NAME = re.compile(r"\(\s*([A-Za-z_]\w*)\s*\)(?=\s*(?:\.|->|\[|\)|,|[<>=!/%|^?:]|$))")
_MEMBER_BEFORE = re.compile(r"(?:\.|->)\s*$")
_CALLED_BEFORE = re.compile(r"[\w\])]\s*$")


def _unwrapped(text: str) -> str:
    """``(((input))).numL`` as ``input.numL``: a bound read in a called function comes
    back in the caller's terms with each argument in parentheses, and a struct passed
    by value (RSBench's ``Input``) then read as a name of its own broke the profile
    build. Not before ``-``, ``+``, ``*`` or ``&``, where the parentheses may be a cast,
    nor after a name or a bracket, where they are a call's."""

    def bare(m: re.Match) -> str:
        return m.group(0) if _CALLED_BEFORE.search(m.string[: m.start()]) else m.group(1)

    while (done := _PAREN_NAME.sub(bare, text)) != text:
        text = done
    return text


def _evaluable(text: str, loop_vars: set[str]) -> bool:
    if not text or text == "?" or not side_effect_free(text):
        return False
    words = set(re.findall(r"[A-Za-z_]\w*", text))
    return not (words & loop_vars)


def _stdin_digest(path: str | None) -> str | None:
    if path is None:
        return None
    from autotune.measure.build import file_hash

    return file_hash(Path(path))


def profile_key(req: ProfileRequest, records: list[LoopRecord] | None = None) -> str:
    """The stored profile's name: the program, its build and run, and what is measured
    at each loop (a profile of other expressions is another profile)."""
    from autotune import textfile

    plan = {r.id: expressions(r) for r in records or [] if r.nest}

    blob = json.dumps(
        {
            "source": textfile.content_hash(req.source),
            "build": req.build.to_dict(),
            "args": req.args,
            "cwd": req.cwd,
            "stdin": _stdin_digest(req.stdin),
            **({"expect_status": req.expect_status} if req.expect_status else {}),
            **({"measured": plan} if plan else {}),
            "team": 1,  # profiles measure the loop's team (stored ones before did not)
            # a loop that cannot be instrumented is left out, not the whole file (stored
            # ones before lost every loop), and macro directives are written at the site
            "partial": 1,
            **({"sites": sites} if (sites := _sites(records)) else {}),
            **({"openmp": openmp} if (openmp := openmp_settings()) else {}),
        },
        sort_keys=True,
    )
    return hashlib.sha256(blob.encode()).hexdigest()[:24]


def _sites(records: list[LoopRecord] | None) -> dict[str, dict]:
    return {
        r.id: {str(k): v for k, v in r.directive_sites.items()}
        for r in records or []
        if r.directive_sites
    }


class ProfileUnavailable(UserError):
    """The profile program could not be written or built (the program itself is fine)."""


def _profile_build(req: ProfileRequest, records: list[LoopRecord]):
    """Instrument every loop (their execution counts help all of them); a loop whose
    instrumentation cannot be written (a directive a macro makes) or that the compiler
    rejects at its line is left out and the others are profiled (one loop never costs a
    file its profile run); then only the loops that need a profile; then those with only
    their own bounds measured (a text of a called function's bounds or of the proof's
    sizes the compiler rejects at the loop must not leave the trip counts unknown);
    ProfileUnavailable when even that fails."""
    everything = [r for r in records if r.nest]
    needed = [
        r for r in everything if r.facts == "unknown" or r.trip_count is None or r.proof_sizes
    ]
    error = ""
    for loops, minimal in ((everything, False), (needed, False), (needed, True)):
        loops = list(loops)
        tries = MAX_LEFT_OUT + 1  # each try builds once: a few loops left out, then give up
        while loops and tries:
            tries -= 1
            plan = {r.id: expressions(r, minimal) for r in loops}
            inner = {} if minimal else {r.id: p for r in loops if (p := inner_plan(r))}
            text, why, culprit = _instrumented(req, loops, plan, inner)
            if text is not None:
                built = req.build.build(
                    text, name_hint=f"{req.path.stem}-profile", source_path=req.path
                )
                if built.ok:
                    return loops, plan, inner, built
                why = f"the profile build failed: {built.command}: {built.first_line}"
                culprit = _loop_at(loops, built.first_line)
            error = why
            if culprit is None:
                break
            loops.remove(culprit)  # left out, with its own reason; the others go on
    raise ProfileUnavailable(error or "no loop to profile", str(req.path))


MAX_LEFT_OUT = 8  # loops left out of one profile build before the next plan is tried


def _instrumented(
    req: ProfileRequest, loops: list[LoopRecord], plan: dict, inner: dict
) -> tuple[str | None, str, LoopRecord | None]:
    """(the profiling source, '', None), or (None, why, the loop that cannot be written:
    found by writing each alone when all together fail)."""
    from autotune.variants.emit import rewrite_source

    try:
        text = rewrite_source(req.source, [], instrumented=loops, profile=plan, inner=inner)
        return text, "", None
    except UserError as exc:
        why = f"cannot instrument the program: {exc}"
    for r in loops:
        one = {r.id: plan[r.id]}
        try:
            rewrite_source(req.source, [], instrumented=[r], profile=one, inner=_only(inner, r))
        except UserError:
            return None, why, r
    return None, why, None


def _only(inner: dict, record: LoopRecord) -> dict:
    return {record.id: inner[record.id]} if record.id in inner else {}


_ERROR_AT = re.compile(r"^(?P<file>[^:\s]+):(?P<line>\d+):(?:\d+:)?\s*(?:fatal )?error")


def _loop_at(loops: list[LoopRecord], first_line: str) -> LoopRecord | None:
    """The loop a compiler error at ``file:line`` is in (the last loop of that file that
    starts at or before the line: the instrumentation keeps the user's line numbers)."""
    m = _ERROR_AT.match(first_line.strip())
    if m is None:
        return None
    line = int(m.group("line"))
    here = [r for r in loops if os.path.abspath(r.file) == os.path.abspath(m.group("file"))]
    before = [r for r in here if (r.directive.line or r.line) <= line]
    return max(before, key=lambda r: r.line) if before else None


def run_profile(req: ProfileRequest, records: list[LoopRecord]) -> dict[str, dict]:
    """Build the profiling original, run it once; per loop key: values, executions, args.

    One clear UserError when the program does not build, fails or times out.
    """
    if not any(r.nest for r in records):
        return {}
    loops, plan, inner, built = _profile_build(req, records)
    with tempfile.TemporaryDirectory(prefix="autotune-profile-") as tmp:
        side = Path(tmp) / "timing.txt"
        res = run_program(
            built.exe_path,
            timeout_s=req.timeout_s,
            cwd=req.cwd,
            args=req.args,
            timing_file=side,
            stdin=req.stdin,
            expect_status=req.expect_status,
        )
        lines = side.read_text(errors="replace").splitlines() if side.exists() else []
    if res.status != "ok":  # the message holds the exit status and stderr's last line
        output = (res.stderr + "\n" + res.stdout).replace(str(built.exe_path), req.path.stem)
        usage = _usage_line(output)
        hint = (
            f"; if it exits {res.returncode} by design, pass --expect-status {res.returncode}"
            if res.returncode and res.returncode > 0 and res.returncode != req.expect_status
            else ""
        )
        if usage:  # the program says how it is run: its arguments are missing or wrong
            hint = f'; it printed {usage!r}: give its arguments with --args "..."'
        raise UserError(
            f"the profile run of the original failed: {res.message} "
            f"(arguments: {' '.join(req.args) or 'none'}){hint}",
            str(req.path),
        )
    return _parse(lines, loops, plan, req.args, inner)


def _usage_line(output: str) -> str:
    """The line of a failed run's output that says how the program is run ('Usage: ./3D
    <rows/cols> ...'), shortened; '' where there is none."""
    for line in output.splitlines():
        text = " ".join(line.split())
        if text.lower().startswith(("usage", "error: usage")):
            return text if len(text) <= 100 else text[:97] + "..."
    return ""


def _parse(
    lines: list[str],
    loops: list[LoopRecord],
    plan: dict[str, list[str]],
    args: list[str],
    inner: dict[str, dict] | None = None,
) -> dict[str, dict]:
    by_id = {r.id: r for r in loops}
    out: dict[str, dict] = {
        r.key: {"args": list(args), "executions": 0, "values": {}, "ranges": {}} for r in loops
    }
    for line in lines:
        parts = line.split("\t")
        if len(parts) >= 3 and parts[0] == VALUES_TAG and parts[1] in by_id:
            rec = by_id[parts[1]]
            k = int(parts[2])
            if k < len(plan[rec.id]) and len(parts) > 3 and plan[rec.id][k] != rec.guard:
                vals = sorted(int(v) for v in parts[3:])
                out[rec.key].setdefault("medians", {})[plan[rec.id][k]] = vals[len(vals) // 2]
            continue
        if len(parts) == 5 and parts[0] == INNER_TAG and parts[1] in by_id:
            rec = by_id[parts[1]]
            p = (inner or {}).get(rec.id)
            if p is not None:
                t, lo, hi = int(parts[2]), int(parts[3]), int(parts[4])
                n = count_scalar(lo, hi, p["inner_op"], p["inner_step"])
                out[rec.key].setdefault("inner", []).append([t, n if n is not None else 0])
            continue
        if len(parts) != 7 or parts[0] != PROFILE_TAG or parts[1] not in by_id:
            continue
        rec = by_id[parts[1]]
        entry = out[rec.key]
        k, first, low, high = int(parts[2]), int(parts[3]), int(parts[4]), int(parts[5])
        if k < 0:
            entry["executions"] = first
        elif k == len(plan[rec.id]):  # the team, after the expressions
            if low >= 1:
                entry["team"] = [first, low, high]
        elif k < len(plan[rec.id]):
            text = plan[rec.id][k]
            if text == rec.guard:  # 0 or 1 at each execution: the sum counts where it held
                entry["guard"] = {"text": text, "lowest": low, "held": int(float(parts[6]))}
                continue
            entry["values"][text] = first
            entry["ranges"][text] = [low, high]
            entry.setdefault("sums", {})[text] = float(parts[6])
    return out


def profile_with_store(req: ProfileRequest, records: list[LoopRecord], store) -> tuple[dict, bool]:
    """The profile from the store, or a new run stored there; (profile, made now)."""
    key = profile_key(req, records)
    if store is not None:
        doc = store.load_profile(key)
        if doc is not None:
            return doc, False
    doc = run_profile(req, records)
    if store is not None:
        store.save_profile(key, doc)
    return doc, True


def needs_profile(records: list[LoopRecord]) -> bool:
    """Some loop's trip count or size is not in the source, or a loop the proof keeps
    met sizes it could be proven at (``proof.specialise``)."""
    return any(
        r.facts == "unknown" or (r.trip_count is None and r.nest) or r.proof_sizes for r in records
    )


def analyze_with_profile(
    path: str,
    options,
    req: ProfileRequest | None,
    store=None,
    threads: int | None = None,
    cc: str = "gcc",
    formulas: str = "",
):
    """The translation unit, with a profile run filling in run-time sizes when needed.

    Without ``req`` (no way to run the program) the static analysis is returned
    as it is. Returns (unit, note): the note says whether a profile was made,
    reused or not needed. ``formulas``: as ``analyze_options``.
    """
    from autotune.analysis import analyze_options

    unit = analyze_options(path, options, threads=threads, cc=cc, formulas=formulas)
    if req is None or not needs_profile(unit.loops):
        return unit, ""
    try:
        doc, made = profile_with_store(req, unit.loops, store)
    except ProfileUnavailable as exc:  # analysis as the source allows, and say why
        unit.warnings.append(f"no profile run: {exc}")
        unit.profile_note = f"no profile run ({exc}): loops sized at run time stay unknown"
        return unit, unit.profile_note
    unit = analyze_options(path, options, threads=threads, cc=cc, profiles=doc, formulas=formulas)
    unit.profile_note = profile_note(req, made)
    return unit, unit.profile_note


def profile_note(req: ProfileRequest, made: bool) -> str:
    """What a command says about the profile run behind its figures."""
    shown = " ".join(req.args) or "(no arguments)"
    how = "one build and one run made now" if made else "reused from the database"
    return f"profile run of the original with {shown}: {how}"


def file_profiles(
    path: str, options, req: ProfileRequest, store, cc: str = "gcc"
) -> tuple[dict | None, str]:
    """(values, note): the run-time sizes of the file's loops from one profile run (kept
    in ``store`` and reused); (None, "") when no loop needs one."""
    from autotune.analysis import analyze_options

    unit = analyze_options(path, options, cc=cc)
    if not needs_profile(unit.loops):
        return None, ""
    doc, made = profile_with_store(req, unit.loops, store)
    return doc, profile_note(req, made)

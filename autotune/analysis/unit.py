"""A C file in, one analysed LoopRecord per OpenMP worksharing loop out (front end + analysis)."""

from __future__ import annotations

import os

from pycparser import c_ast

from autotune.analysis.directive_checks import (
    check_clauses,
    macro_sites,
    refuse_unwritable,
    same_path,
)
from autotune.analysis.gate import apply_gate
from autotune.analysis.loop import analyze_loop
from autotune.analysis.proof.facts import reduction_items
from autotune.analysis.proof.program import build_program
from autotune.analysis.symbols import file_info
from autotune.errors import UserError, raise_analysis_faults
from autotune.frontend.cparse import parse_unit
from autotune.frontend.finder import FoundLoop, OmpFinder, SyncCounter
from autotune.frontend.options import SourceOptions
from autotune.frontend.records import LoopRecord, RegionRecord, TranslationUnit

__all__ = ["analyze_file", "analyze_options"]


def analyze_file(
    path: str,
    defines: dict[str, str] | None = None,
    include_dirs: list[str] | None = None,
    cflags: list[str] | None = None,
    threads: int | None = None,
    cc: str = "gcc",
    profiles: dict[str, dict] | None = None,
    extra_sources: list[str] | None = None,
) -> TranslationUnit:
    """Preprocess, parse and analyse ``path``; one record per OpenMP loop.

    Raises UserError when the file cannot be read, preprocessed or parsed. A
    loop the analysis cannot handle is still reported, with ``tunable=False``.
    ``profiles``: as ``analyze_options``. ``extra_sources``: the program's other C
    files, which the legality proof follows calls into.
    """
    options = SourceOptions(
        dict(defines or {}),
        list(include_dirs or []),
        list(cflags or []),
        list(extra_sources or []),
    )
    return analyze_options(path, options, threads=threads, cc=cc, profiles=profiles)


def analyze_options(
    path: str,
    options: SourceOptions,
    threads: int | None = None,
    cc: str = "gcc",
    profiles: dict[str, dict] | None = None,
    formulas: str = "",
) -> TranslationUnit:
    """``profiles``: per loop key (``line:column``), what one run of the original measured at
    the loop's entry (``values`` of C expressions, ``executions``, ``args``); see
    ``autotune.measure.profile``. ``formulas``: also count trip counts, operations and
    footprints as formulas in the sizes (``analysis.symbolic``): "counts", or "threads"
    for the first and last thread's footprints too (seconds on deep nests); "" none, as
    on the ranking path."""
    threads = threads or os.cpu_count() or 1
    ast, headers = parse_unit(path, options, cc)
    finder = OmpFinder()
    finder.visit(ast)
    finder.team_cycles()
    check_clauses(path, options, cc, finder.loops)
    unit = TranslationUnit(path=path, defines=dict(options.defines), headers=headers)
    unit.warnings.extend(finder.problems)
    # a file without a worksharing loop needs nothing of the others (``analyze *.c``
    # would parse every file once per file named)
    others = _other_units(options, cc, unit) if finder.loops else []
    other_funcs = _functions(others, ast)
    ids: set[str] = set()
    for found in finder.loops:
        record = _record(found, ids)
        profile = (profiles or {}).get(record.key)
        _analyse(record, found, ast, threads, finder.threadprivate, profile, other_funcs)
        unit.loops.append(record)
    program = build_program([ast, *others])
    program.complete = not finder.loops or len(others) == len(options.extra_sources)
    apply_gate(list(zip(finder.loops, unit.loops, strict=True)), finder.regions, ast, program)
    for record in unit.loops:
        _guard_in_profile(record)
    sources: dict[str, list[str] | None] = {}
    sites = macro_sites(path, options, cc, unit.loops, sources)
    for record in unit.loops:
        record.directive_sites = {
            d.line: d.text
            for d in (record.directive, record.parallel)
            if d and d.line in sites and same_path(d.file, path)
        }
        refuse_unwritable(record, sources)
        if formulas:
            from autotune.analysis.symbolic import loop_formulas

            record.formulas = loop_formulas(record, per_thread=formulas == "threads")
    by_node = {id(f): r for f, r in zip(finder.loops, unit.loops, strict=True)}
    for region in finder.regions:
        d = region.directive
        unit.regions.append(
            RegionRecord(
                id=f"{d.file}:{d.line}",
                file=d.file,
                line=d.line,
                function=region.func.decl.name if region.func else "",
                directive=d,
                children=[by_node[id(f)].id for f in region.loops if id(f) in by_node],
            )
        )
    return unit


def _other_units(options: SourceOptions, cc: str, unit: TranslationUnit) -> list:
    """The program's other files, parsed (for the proof, and for counting the calls into
    them); a file that does not parse is left out (its functions then count as unknown,
    and the program as not seen whole) and said."""
    units = []
    own = SourceOptions(dict(options.defines), list(options.include_dirs), list(options.cflags))
    for extra in options.extra_sources:
        try:
            extra_ast, headers = parse_unit(extra, own, cc)
            units.append(extra_ast)
            unit.headers = sorted({*unit.headers, os.path.abspath(extra), *headers})
        except UserError as exc:
            unit.warnings.append(
                f"{extra}: not read for the legality proof ({exc}); calls into it are unknown "
                "and the program is not seen whole"
            )
    return units


def _functions(others: list, ast) -> dict[str, tuple[c_ast.FuncDef, c_ast.FileAST]]:
    """Name -> (definition, its file) of every function of the program: the analysed
    file's first (a call back into it from another file), then the other files'. A
    file's own ``static`` function still wins where that file calls it."""
    out = {name: (func, ast) for name, func in file_info(ast).funcs.items()}
    for other in others:
        for name, func in file_info(other).funcs.items():
            out.setdefault(name, (func, other))
    return out


def _record(found: FoundLoop, ids: set[str]) -> LoopRecord:
    d = found.directive
    node = found.for_node
    file = str(node.coord.file) if node is not None and node.coord else d.file
    line = int(node.coord.line) if node is not None and node.coord else d.line
    column = int(node.coord.column or 0) if node is not None and node.coord else 0
    loop_id = f"{file}:{line}"
    if loop_id in ids:  # two loops on one line: disambiguate by column
        loop_id = f"{loop_id}:{column}"
    ids.add(loop_id)
    cycle = found.team_cycle
    return LoopRecord(
        id=loop_id,
        file=file,
        line=line,
        column=column,
        function=found.func.decl.name if found.func else "",
        directive=d,
        parallel=found.parallel,
        team_cycle=[t.clauses.num_threads for t in cycle],
        team_position=next((i for i, t in enumerate(cycle) if t is found.parallel), -1),
        team_step=found.team_step if cycle else "",
    )


def _analyse(
    record: LoopRecord,
    found: FoundLoop,
    ast,
    threads: int,
    threadprivate: set[str],
    profile: dict | None = None,
    other_funcs: dict | None = None,
) -> None:
    """Run the analysis and the front end's own tunability rules on one loop."""
    record.threads = threads
    d = record.directive
    if found.for_node is None:
        record.tunable = False
        record.reason = f"'#pragma {d.text}' is not followed by a for loop"
        return
    rule = openmp_rule(record)
    try:
        analyze_loop(
            record,
            found.for_node,
            found.enclosing,
            found.func,
            ast,
            threads,
            profiled=_profiled_values(profile),
            other_funcs=other_funcs,
        )
    except Exception as exc:  # one odd loop must not lose the file
        if raise_analysis_faults():
            raise
        record.tunable = False
        record.reason = f"analysis failed: {type(exc).__name__}: {exc}"
    if profile is not None:
        _use_profile(record, profile)
    outer, inner = SyncCounter().count(found.for_node)
    if outer or inner:
        trips = record.trip_count or 0
        record.sync_ops = float(outer * trips + inner * (record.iterations or trips))
    if found.in_while and not (profile and profile.get("executions")):
        # a profile run counted them: the count is measured, not unknown
        record.warnings.append("inside a while/do loop: executions per program run unknown")
    if rule:  # the OpenMP rule is the real reason, whatever the analysis said
        record.tunable = False
        record.reason = rule


def _profiled_values(profile: dict | None) -> dict[str, int] | None:
    """The values the analysis uses: the mean over the loop's executions where they vary
    (so executions x the figures approximate the run's total), else the one value."""
    if not profile:
        return None
    values = dict(profile.get("values", {}))
    runs = profile.get("executions") or 0
    for text, (lo, hi) in profile.get("ranges", {}).items():
        total = profile.get("sums", {}).get(text)
        if lo != hi and runs and total is not None:
            values[text] = int(round(total / runs))
    return values


def _use_profile(record: LoopRecord, profile: dict) -> None:
    """What the profile run adds beyond the values: how often the loop ran, and whether."""
    record.profile.update(
        args=list(profile.get("args", [])),
        executions=profile.get("executions"),
        values=dict(profile.get("values", {})),
        ranges=dict(profile.get("ranges", {})),
    )
    record.profile["medians"] = dict(profile.get("medians", {}))
    if profile.get("guard"):
        record.profile["guard"] = dict(profile["guard"])
    varying = sorted(t for t, (lo, hi) in profile.get("ranges", {}).items() if lo != hi)
    if varying:
        medians = profile.get("medians", {})
        record.warnings.append(
            f"sizes change between its {profile.get('executions')} executions ("
            + "; ".join(
                f"{t}: min {profile['ranges'][t][0]}, median "
                f"{medians.get(t, '?')}, max {profile['ranges'][t][1]}"
                for t in varying
            )
            + "): figures are for the mean over its executions"
        )
    runs = profile.get("executions")
    if runs == 0:
        record.facts = "unknown"
        record.tunable = False
        record.reason = (
            "the profile run never reached it with these arguments: its sizes are "
            "unknown and no variant of it could be measured"
        )
        return
    _use_team(record, profile.get("team"))
    if profile.get("inner") and record.trip_count:
        _inner_work(record, profile["inner"])
    if runs and record.executions != runs:
        # measured: the source only knows the loops around it in its own function
        record.executions = int(runs)
        if record.facts == "static":
            record.facts = "profile"


def _guard_in_profile(record: LoopRecord) -> None:
    """What the profile run saw of the loop's run-time test: where it failed at every
    execution, the variants behind it would never run there (kept as written, none
    measured); where it failed at some, the loop ran as written at those."""
    seen = record.profile.get("guard")
    runs = record.profile.get("executions") or 0
    if not record.guard or not seen or seen.get("text") != record.guard or not runs:
        return
    held = min(runs, seen.get("held", 0))
    if held == 0:
        why = (
            f"its run-time test failed at all {runs} execution(s) of the profile run: "
            "variants behind it would not run with these arguments"
        )
        for dim in ("schedule", "threads"):
            record.kept.setdefault(dim, why)
        record.tunable = False
        record.reason = "; ".join(r for r in (why, record.reason) if r)
    elif held < runs or seen.get("lowest", 1) == 0:
        record.warnings.append(
            f"its run-time test held at {held} of {runs} execution(s) of the profile run: "
            "the loop runs as written at the others"
        )
    else:
        record.warnings.append(
            f"its run-time test held at every one of its {runs} execution(s) in the profile run"
        )


def _use_team(record: LoopRecord, team: list[int] | None) -> None:
    """The threads the original runs the loop with, as the profile run saw them: the
    program may choose its own (``omp_set_num_threads(nthreads)`` from its options), and
    the model's figure of the loop as written must be for that team, not a guess."""
    if not team:
        return
    first, low, high = team
    record.profile["team"] = list(team)
    if low != high:
        record.warnings.append(
            f"its team has {low} to {high} threads over its executions (profile run): "
            "the loop as written is modelled as if they were not measured"
        )
        return
    record.team = int(first)
    if record.team != record.threads:
        record.warnings.append(
            f"the original runs it with {record.team} thread(s) (measured by the profile "
            f"run); the per-thread figures are for {record.threads}"
        )


def _inner_work(record: LoopRecord, samples: list[list[int]]) -> None:
    """Per-iteration work from the sampled trip counts of a data-dependent inner loop
    (CSR rows, neighbour lists): what the schedule simulator needs to see the imbalance.
    One step of that loop costs what the loops inside it cost (``inner_split``): the
    source alone had counted it once per distributed iteration."""
    import numpy as np

    n = int(record.trip_count)
    if n > 5_000_000:
        return
    pts = sorted((int(t), int(c)) for t, c in samples if 0 <= int(t) < n)
    if not pts:
        return
    counts = np.zeros(n)
    for (t, c), nxt in zip(pts, [p[0] for p in pts[1:]] + [n], strict=True):
        counts[t:nxt] = c
    unit = max(record.ops_per_iteration.weighted or 0.0, 1.0)
    split = record.inner_split
    outer_w = split.outer_weighted if split else 0.0
    step_w = max(split.step_weighted, 1.0) if split else unit
    # the row's own bookkeeping counts as one innermost step
    work = outer_w + step_w * counts + unit
    steps = float(counts.sum())
    record.work_per_iteration = work.tolist()
    record.iterations = int(round(steps * (split.innermost_per_step if split else 1.0)))
    record.weighted_ops = float(work.sum())
    if split:
        kinds = set(split.outer_ops) | set(split.step_ops)
        record.ops = {
            k: split.outer_ops.get(k, 0.0) * n + split.step_ops.get(k, 0.0) * steps
            for k in sorted(kinds)
        }
    record.facts = "profile"
    record.profile["inner"] = {
        "samples": len(pts),
        "min": int(counts.min()),
        "max": int(counts.max()),
        "total": int(steps),
    }
    record.warnings.append(
        f"inner trip counts sampled from the profile run ({len(pts)} of {n} outer iterations): "
        f"{int(counts.min())}..{int(counts.max())} per iteration"
    )


# OpenMP's own reduction operators; any other is a 'declare reduction' identifier
BUILTIN_OPS = frozenset({"+", "-", "*", "&", "|", "^", "&&", "||", "max", "min"})


def openmp_rule(record: LoopRecord) -> str:
    """Why the front end keeps a loop whatever the proof says (a doacross nest, a
    ``taskloop``, a declared reduction's combiner), or ''."""
    d = record.directive
    c = d.clauses
    if c.ordered and any(o.replace(" ", "").lower().startswith("ordered(") for o in c.other):
        return "ordered(n): a doacross nest, whose cross-iteration waits this tuner does not follow"
    if d.kind in ("loop", "parallel loop"):
        return "the 'loop' construct takes no schedule clause"
    if d.kind == "taskloop":
        return "taskloop is tuned by grainsize, not by schedule"
    declared = [(op, name) for op, name in reduction_items(c.reduction) if op not in BUILTIN_OPS]
    if declared:
        op, name = declared[0]
        return (
            f"reduction({op}: {name}) combines with an operator the program declares ('#pragma "
            "omp declare reduction'), which the proof does not follow: what it combines to may "
            "follow the order threads combine in, which another schedule or team changes"
        )
    words = set(d.kind.split())
    if words & {"target", "teams", "distribute"}:
        return (
            f"'{d.kind}': its threads are a device's or a league of teams', which this "
            "tuner neither varies nor models"
        )
    return ""

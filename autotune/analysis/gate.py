"""Run the legality gate over a file's loops and record what each may vary.

The loop rules (``legality``) and the region rules (``region_rules``) each
name dimensions to keep as written; a loop with nothing left to vary is not
tunable, with every reason said.
"""

from __future__ import annotations

from pathlib import Path

from pycparser import c_ast

from autotune.analysis import guards
from autotune.analysis.orphan_flow import (
    FunctionFlow,
    function_flows,
    open_across_calls,
    open_end_reason,
)
from autotune.analysis.orphan_rules import (
    chains_by_function,
    orphaned_reasons,
    racy_callers,
    racy_region_reason,
)
from autotune.analysis.proof import conditions, specialise, unroll
from autotune.analysis.proof.facts import LoopSite, Proof
from autotune.analysis.proof.persistence import persisted_reads
from autotune.analysis.proof.pointsto import PointsTo
from autotune.analysis.proof.program import SCHEDULE_READS, Program, build_program
from autotune.analysis.proof.syntax import PARAM_TEXTS, param_symbol
from autotune.analysis.proof.verdict import Prover
from autotune.analysis.region_rules import region_facts
from autotune.analysis.symbols import Scope
from autotune.errors import raise_analysis_faults
from autotune.frontend.finder import FoundLoop, FoundRegion
from autotune.frontend.preprocess import is_system_file
from autotune.frontend.records import LoopRecord

DIMENSIONS = ("schedule", "threads")
GUARD_ROUNDS = 3  # proofs of a file under ever larger sizes, for loops kept at small ones


def keep(record: LoopRecord, dimension: str, why: str) -> None:
    """Keep ``dimension`` of ``record`` as written (the first reason wins)."""
    record.kept.setdefault(dimension, why)


def _site(found: FoundLoop, regions: list[FoundRegion], ast: c_ast.FileAST) -> LoopSite:
    """The loop with the parallel region around it (its node and clauses)."""
    d = found.directive
    combined = found.parallel is d
    region = None
    if not combined and found.parallel is not None:
        for r in regions:
            if r.directive is found.parallel and any(lp is found for lp in r.loops):
                region = r
    return LoopSite(
        for_node=found.for_node,
        func=found.func,
        ast=ast,
        clauses=d.clauses,
        region_clauses=found.parallel.clauses if found.parallel not in (None, d) else None,
        region_node=region.node if region is not None else None,
        orphaned=found.parallel is None,
    )


def _prove(prover: Prover, site: LoopSite, record: LoopRecord) -> Proof:
    """The proof, or a refusal in one line when it meets what it cannot handle (a loop
    the proof fails on is kept as written; the file's other loops go on)."""
    try:
        return prover.prove(site)
    except Exception as exc:  # one odd loop must not lose the file
        if raise_analysis_faults():
            raise
        out = Proof()
        out.add(
            f"kept as written: the proof could not analyse the loop at {record.file}:"
            f"{record.line} ({type(exc).__name__}: {exc})"
        )
        return out


def _program_settings(record: LoopRecord, prog: Program) -> None:
    """The program's own ``omp_set_schedule()``: measured variants are compiled each with
    its clause, since the program would override a schedule chosen at run time."""
    calls = [f"{file}:{line}" for name, file, line in prog.omp_sets if "set_schedule" in name]
    record.sets_schedule = calls
    if calls:
        record.warnings.append(
            f"the program calls omp_set_schedule() at {', '.join(calls)}: each variant is "
            "measured compiled with its own clause"
        )
    reads = [f"{file}:{line}" for name, file, line in prog.omp_sets if name in SCHEDULE_READS]
    record.reads_schedule = reads
    if reads:
        record.warnings.append(
            f"the program reads its run-time schedule ({', '.join(reads)}): each variant is "
            "measured compiled with its own clause, so that the OMP_SCHEDULE of a variant "
            "does not change what the program reads"
        )
    own = (_same_file(record.file), record.directive.line)
    others = [
        f"{file}:{line}" for file, line in prog.runtime_schedules if (_same_file(file), line) != own
    ]
    record.runtime_elsewhere = others
    if others:
        record.warnings.append(
            f"the program's schedule(runtime) directives at {', '.join(others)} read "
            "OMP_SCHEDULE: each variant is measured compiled with its own clause, so that "
            "the OMP_SCHEDULE of a variant does not reschedule them"
        )


def _same_file(path: str) -> str:
    """A file named two ways (relative, absolute) as one."""
    try:
        return str(Path(path).resolve())
    except OSError:
        return path


def _order_kept(record: LoopRecord) -> bool:
    """The body forbids any change (I/O, order-dependent updates): not even the region's."""
    return record.kept.get("schedule") is not None and record.kept.get(
        "schedule"
    ) == record.kept.get("threads")


def apply_gate(
    pairs: list[tuple[FoundLoop, LoopRecord]],
    regions: list[FoundRegion],
    ast: c_ast.FileAST,
    program: Program | None = None,
) -> None:
    """Fill ``kept`` and ``reassociates`` of every record; untune what has nothing left.

    A loop the proof keeps only because of what happens at small sizes is proved again
    assuming larger ones (``guarded``): it may then vary behind a run-time test."""
    prog = program if program is not None else build_program([ast])
    before = [guards.snapshot(r) for _, r in pairs]
    with conditions.collecting() as failures:
        _gate_pass(pairs, regions, ast, prog)
    _guarded_pass(pairs, regions, ast, prog, failures, before)
    _specialised_pass(pairs, regions, ast, prog, before)
    _measured_rows_pass(pairs, regions, ast, prog)
    _threadprivate_persistence(pairs, regions, prog)
    for _, record in pairs:
        if (record.tunable or record.only_size_unknown) and all(
            dim in record.kept for dim in DIMENSIONS
        ):
            legal = "; ".join(dict.fromkeys(record.kept[d] for d in DIMENSIONS))
            record.reason = "; ".join(r for r in (legal, record.reason) if r)
            record.tunable = False


def _threadprivate_persistence(
    pairs: list[tuple[FoundLoop, LoopRecord]], regions: list[FoundRegion], prog: Program
) -> None:
    """Keep every team's thread count when the program may read a threadprivate copy an
    earlier region left (``proof/persistence.py``): it lasts only while the count does."""
    teams = [(r.directive, r.node) for r in regions if r.directive.kind.startswith("parallel")]
    teams += [
        (f.directive, f.for_node)
        for f, _ in pairs
        if f.for_node is not None and f.parallel is f.directive
    ]
    names = persisted_reads(prog, teams)
    if not names:
        return
    why = (
        f"the program reads threadprivate data ({', '.join(names[:3])}) an earlier region may "
        "have left: each thread's copy lasts from one region to the next only while the "
        "thread count stays as written"
    )
    for _, record in pairs:
        if record.tunable or record.only_size_unknown:
            if record.region_threads or "threads" not in record.kept:
                record.kept["threads"] = why  # not tuned for its region either
            record.region_threads = False


def _gate_pass(
    pairs: list[tuple[FoundLoop, LoopRecord]],
    regions: list[FoundRegion],
    ast: c_ast.FileAST,
    prog: Program,
) -> None:
    """The loop rules, then the region rules, over every loop of the file."""
    sites = {id(f): _site(f, regions, ast) for f, _ in pairs if f.for_node is not None}
    prover = Prover(prog, PointsTo(prog), list(sites.values()))
    chains = chains_by_function(pairs, ast, prover)
    flows = function_flows(_user_functions(ast))
    racy = racy_callers(chains, pairs, flows)
    for found, record in pairs:
        if found.for_node is None or not (record.tunable or record.only_size_unknown):
            continue
        proof = _prove(prover, sites[id(found)], record)
        why = "; ".join(proof.order)
        if why:
            keep(record, "schedule", why)
            keep(record, "threads", why)
            record.proof_sizes = _sizes_usable(prog, ast, found, regions, proof.sizes)
        for reason in proof.schedule_only:
            keep(record, "schedule", reason)
        record.reassociates = proof.reassociates
        _program_settings(record, prog)
        if found.parallel is None:
            for dim, reason in orphaned_reasons(found, chains[id(found.func)], racy).items():
                keep(record, dim, reason)
    by_node = {id(f.for_node): r for f, r in pairs if f.for_node is not None}
    bodies = [f.events for f in flows.values()]
    for region in regions:
        if region.directive.kind != "parallel":
            continue
        facts = region_facts(
            region,
            [f for f, _ in pairs],
            Scope(region.func, ast),
            prover.loops_touch,
            prover.name_objects(region.func, ast),
            prog.funcs,
            prover.chain_races,
        )
        for key, why in facts.schedule_kept.items():
            if key in by_node:
                keep(by_node[key], "schedule", why)
        for key, why in facts.threads_kept.items():
            if key in by_node:
                keep(by_node[key], "threads", why)
        members = [by_node[k] for k in facts.members if k in by_node]
        why = racy_region_reason(region, facts.events, flows, racy)
        for r in members if why else []:  # it runs a function whose chain races: keep all
            keep(r, "schedule", why)
            keep(r, "threads", why)
        # every loop of the region must allow it: one that prints, or uses thread ids,
        # would see the region's new thread count too
        if all((r.tunable or r.only_size_unknown) and not _order_kept(r) for r in members):
            for key in facts.region_free:
                if key in by_node:
                    by_node[key].region_threads = True
        bodies.append(facts.events)
    _nowait_across_calls(flows, bodies, by_node)


def _user_functions(ast: c_ast.FileAST) -> list[c_ast.FuncDef]:
    return [
        ext
        for ext in ast.ext
        if isinstance(ext, c_ast.FuncDef)
        and not is_system_file(ext.coord.file if ext.coord else None)
    ]


def _nowait_across_calls(
    flows: dict[str, FunctionFlow], bodies: list[list], by_node: dict[int, LoopRecord]
) -> None:
    """A nowait left open by a call, or open when a call runs another function's loops:
    the loops on both sides keep their schedules (``orphan_flow``)."""
    entered: dict[str, str] = {}
    for events in bodies:
        calls = open_across_calls(events, flows)
        for key, why in calls.kept.items():
            if key in by_node:
                keep(by_node[key], "schedule", why)
        for name, why in calls.entered.items():
            entered.setdefault(name, why)
    anywhere = open_end_reason(flows)  # a caller this file does not show
    for name, flow in flows.items():
        why = entered.get(name) or anywhere
        if why:
            for key in flow.entry:
                if key in by_node:
                    keep(by_node[key], "schedule", why)


def _guarded_pass(
    pairs: list[tuple[FoundLoop, LoopRecord]],
    regions: list[FoundRegion],
    ast: c_ast.FileAST,
    prog: Program,
    failures: list,
    before: list[dict],
) -> None:
    """Prove the file again assuming sizes above every small-size failure; a loop kept
    before and free now varies behind ``if (guard)``. The thread count only where the
    guard can cover its clause (a combined ``parallel for``); a region's never."""
    kept = [r for _, r in pairs if "schedule" in r.kept and (r.tunable or r.only_size_unknown)]
    if not kept or not failures:
        return
    candidates = [f for f, r in pairs if "schedule" in r.kept]
    usable: dict[int, set[str]] = {id(f): set() for f in candidates}
    seen: set[str] = set()
    bounds: dict[str, int] = {}
    first = [guards.snapshot(r) for _, r in pairs]
    second = first
    for _ in range(GUARD_ROUNDS):
        # a question stops at its first failing pair: the pairs after it fail, if at all,
        # under the assumption that clears the first, so they are asked again under it
        params = {name for f in failures for name in conditions.param_names(f)} - seen
        seen |= params
        for f in candidates:
            usable[id(f)] |= guards.usable_at(prog, ast, f, regions, params)
        raised = conditions.lower_bounds(failures, set().union(*usable.values()))
        merged = {p: max(bounds.get(p, 0), raised.get(p, 0)) for p in bounds.keys() | raised}
        if merged == bounds:
            break
        bounds = merged
        for (_, record), saved in zip(pairs, before, strict=True):
            guards.restore(record, saved)
        with conditions.assuming(bounds), conditions.collecting() as failures:
            _gate_pass(pairs, regions, ast, prog)
        second = [guards.snapshot(r) for _, r in pairs]
    if not bounds:
        return
    guard = guards.guard_text(bounds)
    for (found, record), was, now in zip(pairs, first, second, strict=True):
        guards.restore(record, was)
        if "schedule" not in was["kept"] or "schedule" in now["kept"]:
            continue
        if not set(bounds) <= usable.get(id(found), set()):
            continue  # its directive cannot test every size the proof assumed
        del record.kept["schedule"]
        combined = found.parallel is found.directive
        if combined and "threads" in record.kept and "threads" not in now["kept"]:
            del record.kept["threads"]
        record.guard = guard
        record.warnings.append(
            f"proven only where {guard}: variants run behind that test, and the loop as "
            f"written otherwise (at smaller sizes: {was['kept']['schedule']})"
        )


def _sizes_usable(
    prog: Program, ast: c_ast.FileAST, found: FoundLoop, regions: list[FoundRegion], texts
) -> list[str]:
    """Of the sizes a proof met, those a run-time test at the directive can read alike
    on every thread (what a profile run measures for a proof at exact sizes)."""
    params = {param_symbol(t) for t in texts}
    return sorted(PARAM_TEXTS[p] for p in guards.usable_at(prog, ast, found, regions, params))


def _proof_at(
    found: FoundLoop,
    fixed: dict[str, int],
    regions: list[FoundRegion],
    ast: c_ast.FileAST,
    prog: Program,
    pairs: list[tuple[FoundLoop, LoopRecord]],
) -> tuple[Proof, set[str]]:
    """The loop's own proof at those sizes (a cheap look: the file's whole gate is run
    again only where it matters), and the size texts it took as those values."""
    sites = [_site(f, regions, ast) for f, _ in pairs if f.for_node is not None]
    mine = next(s for s in sites if s.for_node is found.for_node)
    with specialise.at_sizes(id(found.for_node), fixed) as used:
        proof = Prover(prog, PointsTo(prog), sites).prove(mine)
    return proof, set(used)


MAX_FREED = 6  # sizes tried one by one for a guard of fewer values


def _fewest_sizes(
    found: FoundLoop,
    fixed: dict[str, int],
    regions: list[FoundRegion],
    ast: c_ast.FileAST,
    prog: Program,
    pairs: list[tuple[FoundLoop, LoopRecord]],
) -> dict[str, int]:
    """The measured sizes the loop's proof needs, each left free in turn while the proof
    still holds without it (a trip bound the proof reads but does not need): a test of
    fewer values lets the variants run at more sizes."""
    if len(fixed) > MAX_FREED:
        return fixed
    for text in sorted(fixed):
        trial = {t: v for t, v in fixed.items() if t != text}
        if not _proof_at(found, trial, regions, ast, prog, pairs)[0].order:
            fixed = trial
    return fixed


def _measured_rows_pass(
    pairs: list[tuple[FoundLoop, LoopRecord]],
    regions: list[FoundRegion],
    ast: c_ast.FileAST,
    prog: Program,
) -> None:
    """Check the rows of every loop proven with sizes in its bounds at the sizes its
    profile run measured. Subscripts under bounds in the sizes are taken to stay in their
    rows (C requires it); a grid declared ``double a[512][512]`` and swept to an ``m``
    read at run time leaves them at ``m = 512`` (``a[i][j + 1]`` is ``a[i + 1][0]``).
    At the measured sizes the bounds are numbers and each subscript's range is known:
    one that leaves its row there keeps the loop, whatever else was proven."""
    for found, record in pairs:
        if found.for_node is None or "schedule" in record.kept or record.guard:
            continue
        measured = set((record.profile or {}).get("ranges") or {})
        fixed = specialise.fixed_values(record.profile, set(record.proof_sizes) | measured)
        if not fixed:
            continue
        proof, used = _proof_at(found, fixed, regions, ast, prog, pairs)
        spills = proof.overflows
        if spills:
            sizes = specialise.guard_text({t: fixed[t] for t in used} or fixed)
            why = f"at the sizes the profile run measured ({sizes}): {spills[0]}"
            for dim in DIMENSIONS:
                keep(record, dim, why)


def _specialised_pass(
    pairs: list[tuple[FoundLoop, LoopRecord]],
    regions: list[FoundRegion],
    ast: c_ast.FileAST,
    prog: Program,
    before: list[dict],
) -> None:
    """Prove each loop still kept again at the sizes its profile measured (constant over
    its executions), short pass loops unrolled, one loop at a time so that no other
    loop's verdict leans on sizes only this loop's test checks; freed, it varies behind
    ``if (those sizes)``, or everywhere when it used none (pass loops of constant
    bounds, without a profile too)."""
    for found, record in pairs:
        if found.for_node is None or "schedule" not in record.kept or record.guard:
            continue
        if not (record.tunable or record.only_size_unknown):
            continue
        fixed = specialise.fixed_values(record.profile, set(record.proof_sizes))
        if not fixed and not unroll.has_pass_loop(found.for_node, prog.funcs):
            continue  # nothing a second proof could know better
        if _proof_at(found, fixed, regions, ast, prog, pairs)[0].order:
            continue
        fixed = _fewest_sizes(found, fixed, regions, ast, prog, pairs)
        first = [guards.snapshot(r) for _, r in pairs]
        for (_, r), saved in zip(pairs, before, strict=True):
            guards.restore(r, saved)
        with specialise.at_sizes(id(found.for_node), fixed) as used:
            _gate_pass(pairs, regions, ast, prog)
        now = guards.snapshot(record)
        used_values = {t: fixed[t] for t in sorted(used)}
        for (_, r), saved in zip(pairs, first, strict=True):
            guards.restore(r, saved)
        if "schedule" in now["kept"]:
            continue
        if not used_values:  # its pass loops had constant bounds: proven for every run
            guards.restore(record, now)
            continue
        was = record.kept["schedule"]
        del record.kept["schedule"]
        if found.parallel is found.directive and "threads" not in now["kept"]:
            record.kept.pop("threads", None)
        elif record.kept.get("threads") == was:
            record.kept["threads"] = (
                "proven only at the sizes the profile run measured, and the thread count is "
                "the parallel region's, set before the test at the loop can run"
            )
        record.reassociates = list(dict.fromkeys(record.reassociates + now["reassociates"]))
        record.guard = specialise.guard_text(used_values)
        record.guard_sizes = used_values
        if record.guard:
            record.warnings.append(
                f"proven only at the sizes the profile run measured, {record.guard}: variants "
                f"run behind that test, and the loop as written at any other size ({was})"
            )

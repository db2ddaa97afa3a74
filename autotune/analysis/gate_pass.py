"""One pass of the legality gate over a file's loops: the proof of each loop, then the
region rules, each naming the dimensions to keep as written (``gate`` runs it, and
``versioning`` runs it again under assumed or measured sizes)."""

from __future__ import annotations

from collections.abc import Iterator
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
from autotune.analysis.proof.facts import LoopSite, Proof
from autotune.analysis.proof.pointsto import PointsTo
from autotune.analysis.proof.program import SCHEDULE_READS, Program
from autotune.analysis.proof.syntax import PARAM_TEXTS, param_symbol
from autotune.analysis.proof.verdict import Prover
from autotune.analysis.region_rules import region_facts
from autotune.analysis.symbols import Scope
from autotune.errors import raise_analysis_faults
from autotune.frontend.finder import FoundLoop, FoundRegion
from autotune.frontend.preprocess import is_system_file
from autotune.frontend.records import LoopRecord

DIMENSIONS = ("schedule", "threads")


def keep(record: LoopRecord, dimension: str, why: str) -> None:
    """Keep ``dimension`` of ``record`` as written (the first reason wins)."""
    record.kept.setdefault(dimension, why)


def loop_prover(
    pairs: list[tuple[FoundLoop, LoopRecord]],
    regions: list[FoundRegion],
    ast: c_ast.FileAST,
    prog: Program,
) -> tuple[dict[int, LoopSite], Prover]:
    """Each loop's site (by its ``FoundLoop``'s id) and one prover over them, whose walks
    the later passes share (each loop is walked once for all of them)."""
    sites = {id(f): site_of(f, regions, ast) for f, _ in pairs if f.for_node is not None}
    return sites, Prover(prog, PointsTo(prog), list(sites.values()))


def kept_by_schedule(
    pairs: list[tuple[FoundLoop, LoopRecord]], sites: dict[int, LoopSite]
) -> Iterator[tuple[FoundLoop, LoopRecord, LoopSite]]:
    """The loops a second proof may free: a ``for`` with no run-time test yet, tunable
    but for its schedule kept (the versioning passes' candidates)."""
    for found, record in pairs:
        if found.for_node is None or record.guard or "schedule" not in record.kept:
            continue
        if record.tunable or record.only_size_unknown:
            yield found, record, sites[id(found)]


def site_of(found: FoundLoop, regions: list[FoundRegion], ast: c_ast.FileAST) -> LoopSite:
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


def order_kept(record: LoopRecord) -> bool:
    """The body forbids any change (I/O, order-dependent updates): not even the region's."""
    return record.kept.get("schedule") is not None and record.kept.get(
        "schedule"
    ) == record.kept.get("threads")


def gate_pass(
    pairs: list[tuple[FoundLoop, LoopRecord]],
    regions: list[FoundRegion],
    ast: c_ast.FileAST,
    prog: Program,
) -> None:
    """The loop rules, then the region rules, over every loop of the file."""
    sites = {id(f): site_of(f, regions, ast) for f, _ in pairs if f.for_node is not None}
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
        for reason in proof.threads_only:
            keep(record, "threads", reason)
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
            prover.slot_indices,
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
        if all((r.tunable or r.only_size_unknown) and not order_kept(r) for r in members):
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


def _sizes_usable(
    prog: Program, ast: c_ast.FileAST, found: FoundLoop, regions: list[FoundRegion], texts
) -> list[str]:
    """Of the sizes a proof met, those a run-time test at the directive can read alike
    on every thread (what a profile run measures for a proof at exact sizes)."""
    params = {param_symbol(t) for t in texts}
    return sorted(PARAM_TEXTS[p] for p in guards.usable_at(prog, ast, found, regions, params))

"""Run the legality gate over a file's loops and record what each may vary.

The loop rules (``legality``) and the region rules (``region_rules``) each
name dimensions to keep as written; a loop with nothing left to vary is not
tunable, with every reason said.
"""

from __future__ import annotations

from pycparser import c_ast

from autotune.analysis import guards
from autotune.analysis.gate_pass import DIMENSIONS, gate_pass, loop_prover
from autotune.analysis.overlap import overlap_pass
from autotune.analysis.proof import conditions
from autotune.analysis.proof.persistence import persisted_reads
from autotune.analysis.proof.program import Program, build_program
from autotune.analysis.versioning import (
    guarded_pass,
    measured_rows_pass,
    relation_pass,
    specialised_pass,
)
from autotune.frontend.finder import FoundLoop, FoundRegion
from autotune.frontend.records import LoopRecord


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
        gate_pass(pairs, regions, ast, prog)
    guarded_pass(pairs, regions, ast, prog, failures, before)
    shared = loop_prover(pairs, regions, ast, prog)  # both passes walk each loop once
    relation_pass(pairs, regions, ast, prog, shared)
    overlap_pass(pairs, regions, ast, prog, shared)
    specialised_pass(pairs, regions, ast, prog, before)
    measured_rows_pass(pairs, regions, ast, prog)
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

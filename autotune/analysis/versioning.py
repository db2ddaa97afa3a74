"""The gate's second proofs, for loops the first pass keeps (loop versioning).

Proven again assuming what the failed questions say would clear them (sizes above a
small bound, a relation between sizes: ``conditions``), or at the sizes a profile run
measured (``specialise``), a loop varies behind a run-time test of exactly that, and
runs as written wherever the test fails; a loop proven with sizes in its bounds is
checked again at the measured sizes for subscripts that leave their rows."""

from __future__ import annotations

from pycparser import c_ast

from autotune.analysis import guards
from autotune.analysis.gate_pass import (
    DIMENSIONS,
    gate_pass,
    keep,
    kept_by_schedule,
    loop_prover,
    site_of,
)
from autotune.analysis.proof import conditions, specialise, unroll
from autotune.analysis.proof.facts import LoopSite, Proof
from autotune.analysis.proof.pointsto import PointsTo
from autotune.analysis.proof.program import Program
from autotune.analysis.proof.scans import is_scan, is_sorted_scan, shown_text
from autotune.analysis.proof.syntax import PARAM_TEXTS, param_symbol
from autotune.analysis.proof.verdict import Prover
from autotune.frontend.finder import FoundLoop, FoundRegion
from autotune.frontend.records import LoopRecord

GUARD_ROUNDS = 3  # proofs of a file under ever larger sizes, for loops kept at small ones


def guarded_pass(
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
            gate_pass(pairs, regions, ast, prog)
        second = [guards.snapshot(r) for _, r in pairs]
    if not bounds:
        return
    guard = guards.guard_text(bounds)
    assumed = set(bounds)
    for (found, record), was, now in zip(pairs, first, second, strict=True):
        guards.restore(record, was)
        if "schedule" not in was["kept"] or "schedule" in now["kept"]:
            continue
        if not assumed <= usable.get(id(found), set()):
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


def relation_pass(
    pairs: list[tuple[FoundLoop, LoopRecord]],
    regions: list[FoundRegion],
    ast: c_ast.FileAST,
    prog: Program,
    shared: tuple[dict[int, LoopSite], Prover] | None = None,
) -> None:
    """Each loop its own proof kept, proved again assuming the relations between sizes
    that clear the questions it failed (``conditions.relations``); proven so, it varies
    behind a test of them. The relations must be satisfiable together, hold at the sizes
    a profile run measured, and leave the loop two iterations to share out."""
    sites, prover = shared or loop_prover(pairs, regions, ast, prog)
    for found, record, site in kept_by_schedule(pairs, sites):
        with conditions.collecting() as failures:
            first = prover.prove(site)
        if first.schedule_only or record.kept["schedule"] != "; ".join(first.order):
            continue  # kept for more than its own questions (a region's rule, a call)
        measured = _measured_params([(found, record)])
        usable = _Usable(prog, ast, found, regions)
        relations = _relations_that_prove(prover, site, failures, usable, measured)
        if relations is None:
            continue
        guard = " && ".join(r.c_text(PARAM_TEXTS) for r in relations)
        shown = {p: shown_text(p, PARAM_TEXTS) for r in relations for p in r.params()}
        was = record.kept.pop("schedule")
        if found.parallel is found.directive and record.kept.get("threads") == was:
            del record.kept["threads"]
        record.guard = guard
        record.warnings.append(
            f"proven only where {' && '.join(r.c_text(shown) for r in relations)}"
            f"{_scanned(relations)}: variants run behind that test, and the loop as "
            f"written where it fails ({was})"
        )


def _scanned(relations: tuple[conditions.Relation, ...]) -> str:
    """What a message adds for the counts a test scans (``max s->nAtoms[iBox]``), and
    for row offsets it checks (``rowptr[r] <= rowptr[r + 1] at every r``)."""
    params = {p for r in relations for p in r.params() if is_scan(p)}
    counts = sorted({shown_text(p, {}) for p in params if not is_sorted_scan(p)})
    said = [f"{', '.join(counts)}: the largest over the loop's iterations"] if counts else []
    if any(is_sorted_scan(p) for p in params):
        said.append("the offsets in the loop's order")
    return f" ({'; '.join(said)}, scanned at its start)" if said else ""


MAX_RELATIONS = 3  # relations in one test, each of few clauses: a test a reader can check


class _Usable:
    """The parameters a run-time test at the loop's directive can read (``guards``)."""

    def __init__(self, prog: Program, ast: c_ast.FileAST, found: FoundLoop, regions) -> None:
        self.prog, self.ast, self.found, self.regions = prog, ast, found, regions

    def __call__(self, params: set[str]) -> set[str]:
        return guards.usable_at(self.prog, self.ast, self.found, self.regions, params)


def _relations_that_prove(
    prover: Prover,
    site: LoopSite,
    failures: list,
    usable: _Usable,
    measured: dict[str, int],
) -> tuple[conditions.Relation, ...] | None:
    """The relations under which the loop's proof holds, found in rounds (a question
    stops at its first failing pair; the next may fail under the first's relation)."""
    relations: tuple[conditions.Relation, ...] = ()
    for _ in range(GUARD_ROUNDS):
        params = {name for f in failures for name in conditions.param_names(f)}
        found = conditions.relations(failures, usable(params), measured)
        more = relations + tuple(r for r in found if r not in relations)
        if more == relations or len(more) > MAX_RELATIONS or not conditions.satisfiable(more):
            return None
        relations = more
        with conditions.assuming({}, relations), conditions.collecting() as failures:
            proof = prover.prove(site)
            twice = prover.runs_twice(site)
        if not twice:
            return None  # at most one iteration where they hold: nothing to share out
        if not proof.order and not proof.schedule_only:
            return relations
    return None


def _measured_params(pairs: list[tuple[FoundLoop, LoopRecord]]) -> dict[str, int]:
    """Sizes the profile runs measured with one value, by parameter (a relation false
    there would keep its variants from ever running)."""
    out: dict[str, int] = {}
    clash: set[str] = set()
    for _, record in pairs:
        profile = record.profile or {}
        texts = set(profile.get("ranges") or {})
        for text, value in specialise.fixed_values(profile, texts).items():
            p = param_symbol(text)
            if out.get(p, value) != value:
                clash.add(p)
            out[p] = value
    return {p: v for p, v in out.items() if p not in clash}


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
    sites = [site_of(f, regions, ast) for f, _ in pairs if f.for_node is not None]
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


def measured_rows_pass(
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


def specialised_pass(
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
            gate_pass(pairs, regions, ast, prog)
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

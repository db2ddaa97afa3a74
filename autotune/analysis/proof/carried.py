"""Values a thread carries from one iteration to the next: the judgement on them.

A thread's own scalar, array or threadprivate data outlives an iteration.
Another schedule hands a thread other iterations, so what it carried in changes;
the loop's result cannot see that only when every read is preceded, in the same
iteration, by a write of the same element, or when the value only accumulates
(``acc += x``) and is combined after the loop by commutative updates. Reduction
variables and lastprivate ones have rules of their own (a reduction's copy used
as a private must be dead after the loop; a lastprivate must be set on every
path of the last iteration).
"""

from __future__ import annotations

from collections.abc import Callable

from pycparser import c_ast

from autotune.analysis.allocators import DEALLOCATORS
from autotune.analysis.astutil import walk
from autotune.analysis.names import call_name, is_floating, is_integral
from autotune.analysis.proof import coverage
from autotune.analysis.proof.combining import combining_ids, integral_elements, linear_map_ids
from autotune.analysis.proof.contexts import root_name
from autotune.analysis.proof.facts import (
    IterationFacts,
    LoopSite,
    Proof,
    Ref,
    clause_names,
    reduction_items,
)
from autotune.analysis.proof.leftovers import assigned_to, leftover_read
from autotune.analysis.proof.program import Program, taint_key
from autotune.analysis.proof.walkstate import LoopContext
from autotune.analysis.symbols import Scope, file_info

# (a node, an array's name) -> the node is in a loop that writes the array before
# each read of it (Prover.rewrites_before_reading)
Rewrites = Callable[[c_ast.Node, str], bool]


def judge_scalars(
    site: LoopSite, ctx: LoopContext, facts: IterationFacts, prog: Program, out: Proof
) -> None:
    scope = Scope(site.func, site.ast)
    for name, line in facts.exposed.items():
        if name in prog.threadprivate and name not in ctx.written:
            out.add(
                f"reads {name} at line {line}, each thread's own copy (threadprivate or "
                "thread-local), which the program stores to elsewhere: the copies may differ, "
                "and which thread runs an iteration decides what it reads"
            )
            continue
        out.add(
            f"private variable {name} is read at line {line} before every path of the "
            "iteration has set it: its value carries over between the iterations one thread runs"
        )
    for name, member, line in _carried_members(facts):
        out.add(
            f"private variable {name} is read at line {line} ({member}) before every path of "
            "the iteration has set it: its value carries over between the iterations one "
            "thread runs"
        )
    accumulators = _accumulators(site, ctx, facts)
    for name in facts.updates:
        if name in ctx.reductions:
            if name in facts.plain and not _dead_after(site, name):
                out.add(
                    f"reduction variable {name} is also set or read at line "
                    f"{facts.plain[name]} and used after the loop: the value it ends with "
                    "depends on the schedule"
                )
            elif name in facts.plain:
                out.add(
                    f"reduction variable {name} accumulates across iterations besides the "
                    f"reduction (line {facts.plain[name]})"
                )
            continue
        if name not in accumulators:
            continue  # already a reason (exposed), or set in the iteration: not carried
        why = accumulators[name]
        if why:
            out.add(
                f"private variable {name} accumulates over the iterations a thread runs and "
                f"{why}: what it holds depends on the schedule"
            )
        elif not is_integral(scope, name, site.for_node) and not any(
            op.startswith("arg") for op in facts.updates[name]
        ):  # a selection with a tie-break keeps one candidate of a strict order
            note = (
                f"{name} is a per-thread partial sum combined after the loop: another schedule "
                "or thread count reassociates it, so results may differ in the last digits"
            )
            if facts.updates[name] <= {"max", "min"}:
                note = (
                    f"{name} is each thread's {next(iter(facts.updates[name]))} combined after "
                    "the loop: of floating-point values that compare equal (-0.0 and 0.0) "
                    "another schedule or thread count may keep the other"
                )
            if note not in out.reassociates:
                out.reassociates.append(note)
    for name, line in facts.plain.items():
        if name in ctx.reductions and name not in facts.updates and not _dead_after(site, name):
            out.add(
                f"reduction variable {name} is set or read at line {line} other than by its "
                "reduction operator, and used after the loop"
            )
    conditional = set(site.clauses.lastprivate_conditional)  # the sequentially last set
    for name in clause_names(site.clauses.lastprivate):
        if name in conditional:
            continue
        if facts.end_defined is not None and name not in facts.end_defined:
            out.add(
                f"lastprivate({name}) is not set on every path of an iteration: the value left "
                "comes from whichever iteration last set it on the thread that ran the last one"
            )
    for name, line in facts.invariant_reads.items():
        if taint_key(name, site.for_node, site.func, site.ast) in prog.tainted:
            out.add(
                f"reads {name} at line {line}, which holds a value that depends on the thread "
                "(a thread number, a team size, what is computed from one or set under a test of "
                "one, or what one thread sets alone in its own copy)"
            )
    for cl in filter(None, [site.clauses, site.region_clauses]):
        for op, name in reduction_items(cl.reduction):
            if op in ("&", "|", "^", "&&", "||") or not is_floating(scope, name, site.for_node):
                continue
            note = f"floating-point reduction({op}:{name}): " + (
                "of values that compare equal (-0.0 and 0.0) the one kept follows the order "
                "in which threads combine, which another thread count or schedule changes"
                if op in ("max", "min")
                else "another thread count or schedule reassociates it, so results may "
                "differ in the last digits"
            )
            if note not in out.reassociates:
                out.reassociates.append(note)


def _dead_after(site: LoopSite, name: str) -> bool:
    """A local of the loop's function that nothing outside the loop reads."""
    decl, kind = Scope(site.func, site.ast).find_decl(name, site.for_node)
    if decl is None or kind not in ("local", "param") or "static" in (decl.storage or []):
        return False
    inside = {id(n) for n in walk(site.for_node)}
    targets = {  # ``name = ...``: set, not read
        id(n.lvalue)
        for n in walk(site.func.body)
        if isinstance(n, c_ast.Assignment) and n.op == "="
    }
    for n in walk(site.func.body):
        if id(n) in inside:
            continue
        if isinstance(n, c_ast.ID) and n.name == name and id(n) not in targets:
            return False
        if isinstance(n, c_ast.UnaryOp) and n.op == "&" and root_name(n.expr) == name:
            return False
    return True


def _accumulator_use(
    site: LoopSite, name: str, prog: Program, op: str | None, counts: bool = False
) -> str:
    """'' when a thread's accumulator (updated with ``op`` in the loop) is only set before
    the loop and combined after it (``combining``); else what else uses it. ``counts``:
    integer sums, which may also go through one linear map on every thread."""
    if name in prog.threadprivate:
        return "is threadprivate (its value outlives the region)"
    holder = site.region_node if site.region_node is not None else None
    if holder is None:
        if site.orphaned:
            holder = site.func.body
        else:
            return ""  # a private clause of a combined construct: the copy dies with the loop
    inside = {id(n) for n in walk(site.for_node)}
    private = None
    if site.region_node is not None and site.region_clauses is not None:
        cl = site.region_clauses
        private = set(clause_names(cl.private + cl.firstprivate + cl.lastprivate))
        private |= {r for _, r in reduction_items(cl.reduction)}
    elif site.region_node is not None:
        private = set()
    combining = combining_ids(holder, name, op, inside, prog, site.func, site.ast, private)
    if counts:
        combining |= linear_map_ids(holder, name, inside, prog, site.func, site.ast)
    for n in walk(holder):
        if id(n) in inside or id(n) in combining:
            continue
        if isinstance(n, c_ast.ID) and n.name == name:
            parent_init = _initialising(holder, n)
            if not parent_init and not _freed(n, site.ast):
                line = n.coord.line if n.coord else 0
                return f"is used at line {line} other than in a combining update"
    return ""


def _initialising(holder: c_ast.Node, node: c_ast.ID) -> bool:
    """``name = constant`` or ``name.f = constant``: setting the accumulator up."""
    for n in walk(holder):
        if isinstance(n, c_ast.Assignment) and n.op == "=":
            lv = n.lvalue
            while isinstance(lv, c_ast.StructRef | c_ast.ArrayRef):
                if lv is node:
                    break
                lv = lv.name
            if (lv is node) and isinstance(n.rvalue, c_ast.Constant):
                return True


def _carried_members(facts: IterationFacts) -> list[tuple[str, str, int]]:
    """(variable, member, line) of each thread's own struct read at a member the
    iteration had not set, where a store of the loop may reach that member's bytes (through it, what
    holds it, a member under it, a union it shares, or a pointer into the copy): the
    value read may be one an earlier iteration of the thread left. A member no
    iteration stores to still holds the copy's first value (firstprivate's)."""
    out = []
    for name, parts in facts.exposed_parts.items():
        if name in facts.exposed:
            continue  # already said
        stored = facts.stored_parts.get(name, set())
        through = any(
            r.kind != "r" and r.objects == frozenset({f"priv:{name}"}) for r in facts.refs
        )
        for member, part, line in parts:
            meets = (
                s == part or s.startswith(part + ".") or part.startswith(s + ".") for s in stored
            )
            if through or any(meets):
                out.append((name, member, line))
                break
    return out


def judge_private_arrays(
    rewrites: Rewrites, site: LoopSite, ctx: LoopContext, facts: IterationFacts, out: Proof
) -> None:
    """A thread's own array (or threadprivate data) across iterations: each element read
    must be written earlier in the same iteration, or the array only accumulates, or it
    is the loop's own firstprivate copy that no iteration writes (every thread's copy
    then holds the original's values)."""
    by_obj: dict[str, list[Ref]] = {}
    for r in facts.refs:
        if r.owner != "private":
            continue
        if r.objects is None or len(r.objects) != 1:
            out.add(
                f"reaches {r.name or 'a private object'} at {r.at} through a pointer "
                "the proof cannot follow"
            )
            continue
        (obj,) = r.objects
        by_obj.setdefault(obj, []).append(r)
    copied_in = set(clause_names(site.clauses.firstprivate))  # the loop's own copies
    for obj, refs in by_obj.items():
        name = obj.split(":", 1)[1]
        if name in copied_in and all(r.kind == "r" for r in refs) and name not in facts.plain:
            continue  # a copy of the original's values that no iteration changes
        if all(r.kind == "u" for r in refs) and len({r.op for r in refs}) == 1:
            counts = refs[0].op == "+" and integral_elements(
                Scope(site.func, site.ast), name, site.for_node
            )
            why = _accumulator_use(site, name, ctx.prog, refs[0].op, counts)
            if why:
                out.add(
                    f"private array {name} accumulates over the iterations a thread runs and {why}"
                )
            else:
                _note_floating_partials(site, name, refs[0], out)
            continue
        reads = [r for r in refs if r.kind != "w"]
        writes = [r for r in refs if r.kind == "w" and r.must]
        texts: dict = {}
        bad = next(
            (
                r
                for r in reads
                if not coverage.covered(r, writes, texts)
                and not coverage.string_covered(r, refs, writes)
            ),
            None,
        )
        if bad is not None:
            r = bad
            out.add(
                f"{name}, which each thread keeps across iterations, may be read at {r.at} "
                "before the iteration has written it: values carry over between the iterations "
                "one thread runs"
            )
            continue
        used = _used_elsewhere(rewrites, site, name, ctx.prog)
        if used:
            out.add(f"{name} keeps the values of the last iteration each thread ran, and {used}")


def _note_floating_partials(site: LoopSite, name: str, ref: Ref, out: Proof) -> None:
    """A thread's own array of floating-point partials, combined after the loop: another
    schedule or team groups the terms otherwise (a max or min may keep the other zero)."""
    op = ref.op or ""
    if op.startswith("arg") or not is_floating(Scope(site.func, site.ast), name, site.for_node):
        return
    if op in ("max", "min"):
        note = (
            f"an update of {name} keeps one of floating-point values that compare equal "
            f"(-0.0 and 0.0) in thread order at {ref.at}"
        )
    else:
        note = (
            f"an update of {name} adds floating-point values in thread order at {ref.at} "
            "(results may differ in the last digits)"
        )
    if note not in out.reassociates:
        out.reassociates.append(note)


def judge_private_scalars_after(
    rewrites: Rewrites, site: LoopSite, ctx: LoopContext, facts: IterationFacts, out: Proof
) -> None:
    """A thread's own scalar set in the loop outlives it when the region holds it (a
    ``parallel private(t)``, a local of the region or of an orphaned loop's function)
    or it is threadprivate: each thread's copy ends with the value of the last
    iteration that thread ran, which another schedule or thread count changes. The
    loop's own private, firstprivate, lastprivate and linear copies do not outlive it
    (or have a value OpenMP fixes)."""
    for name, (line, used) in _leftover_uses(rewrites, site, ctx, facts).items():
        out.add(
            f"{name}, set at line {line}, keeps the value of the last iteration each "
            f"thread ran after the loop, and {used}"
        )


def _leftover_uses(
    rewrites: Rewrites, site: LoopSite, ctx: LoopContext, facts: IterationFacts
) -> dict[str, tuple[int, str]]:
    """A thread's own scalar the loop sets and something after it reads: name -> (the
    line setting it, where it is read)."""
    cl = site.clauses
    own = set(clause_names(cl.private + cl.firstprivate + cl.lastprivate)) | set(ctx.linear)
    out: dict[str, tuple[int, str]] = {}
    for name, line in facts.plain.items():
        if name in own or name in ctx.reductions:
            continue
        if name in ctx.prog.threadprivate:
            used = _used_elsewhere(rewrites, site, name, ctx.prog, reads_only=True)
        else:
            seen = leftover_read(rewrites, site, name)
            used = f"is read at line {seen}" if seen else ""
        if used:
            out[name] = (line, used)
    return out


def observed_leftovers(
    rewrites: Rewrites, site: LoopSite, ctx: LoopContext, facts: IterationFacts
) -> set[str]:
    """The thread's own scalars this loop leaves something in that the program reads
    after it: the last value its iterations set, or what they accumulated. Each thread's
    copy then holds what its own iterations left, so another loop reading one reads a
    value that depends on the thread (a count of the iterations each thread ran)."""
    out = set(_leftover_uses(rewrites, site, ctx, facts))
    return out | {name for name, why in _accumulators(site, ctx, facts).items() if why}


def _accumulators(site: LoopSite, ctx: LoopContext, facts: IterationFacts) -> dict[str, str]:
    """A thread's own scalar each iteration only updates (``acc += x``), not a reduction:
    name -> what else uses it after the loop ('' when only a combining update does)."""
    return {
        name: _accumulator_use(site, name, ctx.prog, next(iter(ops)))
        for name, ops in facts.updates.items()
        if name not in ctx.reductions
        and name not in facts.exposed
        and name not in facts.plain
        and len(ops) == 1
    }


def _used_elsewhere(
    rewrites: Rewrites, site: LoopSite, name: str, prog: Program, reads_only: bool = False
) -> str:
    """Where a thread's data is read outside the loop after it (its leftovers seen):
    in the region for a region's data, in the function for an orphaned loop's local,
    anywhere in the program for threadprivate data (before the loop in its own
    function, and in no loop around both, is setting it up). ``reads_only``: a plain
    assignment to a scalar (``t = 0``) is no use."""
    if name in prog.threadprivate:
        uses = prog.uses(name)
    elif site.region_node is not None or site.orphaned:
        holder = site.region_node if site.region_node is not None else site.func.body
        uses = [
            (n, site.func, site.ast)
            for n in walk(holder)
            if isinstance(n, c_ast.ID) and n.name == name
        ]
    else:
        uses = []
    inside = {id(n) for n in walk(site.for_node)}
    loop_line = site.for_node.coord.line if site.for_node.coord else 0
    around = _loops_around(site)
    for n, func, ast in uses:
        if id(n) in inside:
            continue
        if name in prog.threadprivate:
            _, kind = Scope(func, ast).find_decl(name, n)
            if kind != "global":
                continue  # another variable of the same name
        line = n.coord.line if n.coord else 0
        if func is site.func and line < loop_line and not any(id(n) in a for a in around):
            continue  # set up before the loop
        if reads_only and assigned_to(n, ast):
            continue
        if rewrites(n, name):
            continue  # inside another loop that writes it before each read
        if _handed_to_a_writer(n, name, prog, ast):
            continue  # vranlc(0, &t1, A, x): the callee only stores through it
        if _freed(n, ast):
            continue  # free(w): the block goes, and what it held with it
        return f"is used at line {line}"
    return ""


def _loops_around(site: LoopSite) -> list[set[int]]:
    """The nodes of each loop of the function around the parallel loop (a time-step
    loop runs what precedes the parallel loop in its body after it, too)."""
    parents = file_info(site.ast).parents
    out = []
    node = parents.get(id(site.for_node))
    while node is not None and node is not site.func:
        if isinstance(node, c_ast.For | c_ast.While | c_ast.DoWhile):
            out.append({id(n) for n in walk(node)})
        node = parents.get(id(node))
    return out


def _freed(node: c_ast.ID, ast) -> bool:
    """``node`` is what a deallocator (``free``) is given: nothing reads the block."""
    parents = file_info(ast).parents
    args = parents.get(id(node))
    call = parents.get(id(args)) if isinstance(args, c_ast.ExprList) else None
    if not isinstance(call, c_ast.FuncCall) or call.args is not args:
        return False
    return call_name(call) in DEALLOCATORS and args.exprs[0] is node


def _handed_to_a_writer(node: c_ast.ID, name: str, prog: Program, ast) -> bool:
    """``node`` is an argument of a call to a function of the program whose parameter
    is only ever stored through (``y[i] = ...``), that does not name the object itself
    (its own locals may share the name) and calls nothing: the call cannot read what
    the array held (NPB EP's ``vranlc``)."""
    from autotune.analysis.symbols import _params

    parents = file_info(ast).parents
    args = parents.get(id(node))
    call = parents.get(id(args)) if isinstance(args, c_ast.ExprList) else None
    if not isinstance(call, c_ast.FuncCall) or call.args is not args:
        return False
    entry = prog.funcs.get(call_name(call) or "")
    if entry is None:
        return False
    func, callee_ast = entry
    params = [p.name for p in _params(func)]
    position = next(k for k, a in enumerate(args.exprs) if a is node)
    if position >= len(params) or not params[position]:
        return False
    param = params[position]
    stored = {
        id(n.lvalue.name)
        for n in walk(func.body)
        if isinstance(n, c_ast.Assignment) and n.op == "=" and isinstance(n.lvalue, c_ast.ArrayRef)
    }
    scope = Scope(func, callee_ast)
    for n in walk(func.body):
        if isinstance(n, c_ast.FuncCall):
            return False
        if isinstance(n, c_ast.ID) and n.name == name:
            _, kind = scope.find_decl(name, n)
            if kind not in ("local", "param"):
                return False  # the object itself, by its own name
        if isinstance(n, c_ast.ID) and n.name == param and id(n) not in stored:
            return False
    return True
    return False

"""Does every thread of a team hold the same value of a double buffer's pointers?

A double buffer (``swaps.py``) is two pointers that only exchange their targets, so
at every moment they point at distinct objects. When the pointers are each thread's
own (declared inside a parallel region, privatised by its clauses, threadprivate), that
holds for each thread's pair, but two threads' copies agree only when both have made
the same number of exchanges: a swap that thread 0 alone makes (``if (tid == 0)``,
``master``) leaves thread 0 writing the grid the others read, and which thread runs an
iteration decides what it writes. Rodinia's hotspot3D swaps region-local pointers in
its time loop, on every thread, between two ``omp for`` loops.

So a swap of per-thread pointers counts only where every thread of the team runs it
equally often: on a path from the region down to it with no branch and no construct,
through loops that each hold a worksharing construct or barrier at their own level (all
threads of a team meet those equally often, so a conforming program runs such a loop
the same number of times on every thread) and no jump. A swap outside every region of
its function is made by each thread that calls the function; its copies reach no other
thread's loop unless the function runs worksharing loops bound to a caller's team
(orphaned, here or in the functions it calls outside its own regions).
"""

from __future__ import annotations

from pycparser import c_ast

from autotune.analysis.astutil import path_to, walk
from autotune.analysis.names import call_name
from autotune.analysis.proof.perthread import directives_on, per_thread
from autotune.analysis.proof.program import Program
from autotune.analysis.symbols import Scope
from autotune.frontend.runs import pragma_runs

TEAM_WIDE = ("for", "sections", "single", "barrier")  # met by every thread of a team
JUMPS = (c_ast.Break, c_ast.Continue, c_ast.Goto, c_ast.Return, c_ast.Label)


def swap_is_uniform(
    prog: Program, func: c_ast.FuncDef, ast: c_ast.FileAST, stmt: c_ast.Node, names: list[str]
) -> bool:
    """Every thread that may hold its own copies of ``names`` runs ``stmt`` (the swap's
    first statement) equally often, or no team's loop sees copies that differ."""
    path = path_to(func.body, stmt)
    if path is None:
        return False
    governed = directives_on(path)
    regions = [k for k, d in governed.items() if d.kind.startswith("parallel")]
    if not regions:
        return not orphaned_work(prog, func, {})
    if len(regions) > 1:
        return False  # nested teams: not followed
    r = regions[0]
    region = governed[r]
    if region.kind != "parallel":
        return False  # a combined construct: the swap is in a worksharing loop's body
    scope = Scope(func, ast)
    if not any(
        per_thread(scope, prog.threadprivate, name, stmt, path[r], region) for name in names
    ):
        return True  # one copy for the whole team
    for k in range(r, len(path) - 1):
        node = path[k]
        if k > r and k in governed:
            return False  # under master, single, critical, sections ...
        if isinstance(node, c_ast.Compound):
            continue
        if not isinstance(node, c_ast.For | c_ast.While | c_ast.DoWhile):
            return False  # a branch (if, switch, ?:) or anything else
        if not _team_wide_loop(node):
            return False
    return True


def orphaned_work(prog: Program, func: c_ast.FuncDef, memo: dict[str, bool | None]) -> bool:
    """``func`` runs a worksharing construct or barrier outside its own parallel regions,
    itself or through a function it calls there (a call through a pointer may; so may a
    recursive call)."""
    name = func.decl.name
    if name in memo:
        return memo[name] is not False
    memo[name] = None  # in progress
    memo[name] = _orphaned_here(prog, func, memo)
    return bool(memo[name])


def _orphaned_here(prog: Program, func: c_ast.FuncDef, memo: dict[str, bool | None]) -> bool:
    stack: list[c_ast.Node | None] = [func.body]
    while stack:
        node = stack.pop()
        if node is None:
            continue
        if isinstance(node, c_ast.Compound):
            for run in pragma_runs(node.block_items):
                kinds = [d.kind for d in run.directives]
                if any(k.startswith("parallel") for k in kinds):
                    continue  # the region's own team
                if any(k.split(" ")[0] in TEAM_WIDE for k in kinds):
                    return True
                stack.append(run.stmt)
            continue
        if isinstance(node, c_ast.FuncCall):
            callee = call_name(node)
            if callee is None:
                return True
            entry = prog.funcs.get(callee)
            if entry is not None and orphaned_work(prog, entry[0], memo):
                return True
        stack.extend(c for _, c in node.children())
    return False


def _team_wide_loop(loop: c_ast.For | c_ast.While | c_ast.DoWhile) -> bool:
    """The loop's body holds, at its own level, a construct every thread of the team
    meets, and nothing jumps out of or within it."""
    body = loop.stmt
    if any(isinstance(n, JUMPS) for n in walk(body)):
        return False
    items = body.block_items if isinstance(body, c_ast.Compound) else [body]
    return any(
        d.kind.split(" ")[0] in TEAM_WIDE for run in pragma_runs(items) for d in run.directives
    )

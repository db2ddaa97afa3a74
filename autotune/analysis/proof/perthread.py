"""Which variables each thread of a team holds its own copy of, and the code one thread
of the team runs alone.

Both matter wherever the proof takes one value of a variable for the whole loop: two
threads' copies agree only when both threads set them alike. Code a ``master``,
``masked``, ``single`` or ``sections`` construct holds runs on one thread, so what it
sets in that thread's own copy (a weight the master halves) differs between threads.
"""

from __future__ import annotations

from collections.abc import Iterator

from pycparser import c_ast

from autotune.analysis.astutil import path_to, walk
from autotune.analysis.symbols import Scope
from autotune.frontend.records import Directive
from autotune.frontend.runs import pragma_runs

ONE_THREAD = ("master", "masked", "single", "sections")


def directives_on(path: list[c_ast.Node]) -> dict[int, Directive]:
    """Position on the path -> the first OpenMP directive governing that statement."""
    out: dict[int, Directive] = {}
    for k in range(1, len(path)):
        parent = path[k - 1]
        if not isinstance(parent, c_ast.Compound):
            continue
        for run in pragma_runs(parent.block_items):
            if run.stmt is path[k] and run.directives:
                out[k] = run.directives[0]
    return out


def per_thread(
    scope: Scope,
    threadprivate: set[str],
    name: str,
    at: c_ast.Node,
    region_stmt: c_ast.Node | None,
    region: Directive | None,
) -> bool:
    """Each thread of the team holds its own ``name`` at ``at``: threadprivate, declared
    in the region, privatised by its clauses; without a region in the function, any
    local or parameter (the function may run on every thread of a caller's team)."""
    if name in threadprivate:
        return True
    decl, kind = scope.find_decl(name, at)
    if region is None or region_stmt is None:
        return decl is None or kind in ("local", "param")
    c = region.clauses
    if name in c.private + c.firstprivate + c.lastprivate or c.default in (
        "private",
        "firstprivate",
    ):
        return True
    return decl is None or any(n is decl for n in walk(region_stmt))


def broadcast(d: Directive) -> set[str]:
    """The names a ``single``'s ``copyprivate`` hands to every thread of the team."""
    out: set[str] = set()
    for item in d.clauses.other:
        head, _, rest = item.partition("(")
        if head.strip() == "copyprivate":
            out |= {n.strip() for n in rest.rstrip(")").split(",") if n.strip()}
    return out


def one_thread_statements(
    func: c_ast.FuncDef,
) -> Iterator[tuple[c_ast.Node, c_ast.Node | None, Directive | None, set[str]]]:
    """(a statement one thread of the team runs alone, the statement of the parallel
    region around it and that region's directive, None, None for an orphaned one; the
    names its ``copyprivate`` gives every thread after it)."""
    for node in walk(func.body):
        if not isinstance(node, c_ast.Compound):
            continue
        for run in pragma_runs(node.block_items):
            words = {w for d in run.directives for w in d.kind.split()}
            if run.stmt is None or not words & set(ONE_THREAD):
                continue
            handed = set().union(*(broadcast(d) for d in run.directives))
            yield run.stmt, *region_around(func, run.stmt), handed


def region_around(
    func: c_ast.FuncDef, node: c_ast.Node
) -> tuple[c_ast.Node | None, Directive | None]:
    """The statement and directive of the innermost parallel region of ``func`` around
    ``node`` (None, None: none in this function)."""
    path = path_to(func.body, node) or []
    on = directives_on(path)
    regions = [k for k, d in on.items() if d.kind.startswith("parallel")]
    if not regions:
        return None, None
    return path[regions[-1]], on[regions[-1]]

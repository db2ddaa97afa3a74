"""Does the program read a threadprivate copy an earlier parallel region left behind?

OpenMP keeps a non-initial thread's threadprivate copy from one parallel region to the
next only while the thread count stays the same, and libgomp lets the threads beyond a
smaller team exit, their copies with them (``models/teams.py``). A program that sets a
copy per thread in one region and reads it in a later one (a seed per thread, summed at
the end) then prints another result when any team runs on another thread count. So the
gate keeps every thread count of such a program.

A mention of a threadprivate name observes no earlier region's copy when it is another
variable of that name (a parameter, a local declared before it), when it only stores
(``x = e``, ``x[k] = e``), when it runs in the initial thread outside every team (in
``main``, outside the file's teams: the initial thread never exits), or when its team
copies the master's value in (``copyin``). Any other mention may read a persisted copy:
a read in a team without ``copyin`` (also one that reads what the same region wrote: a
scratch array filled and read in one region is taken as persisted, a precision loss),
and any mention in a function other than ``main`` outside the file's teams (it may be
called from one).
"""

from __future__ import annotations

from collections.abc import Sequence

from pycparser import c_ast

from autotune.analysis.proof.facts import clause_names
from autotune.analysis.proof.program import Program, param_names
from autotune.analysis.symbols import file_info
from autotune.frontend.records import Directive


def persisted_reads(prog: Program, teams: Sequence[tuple[Directive, c_ast.Node]]) -> list[str]:
    """The threadprivate names some mention may read from an earlier region's copy;
    ``teams``: the analysed file's team directives with the statement each governs."""
    by_node = {id(node): d for d, node in teams}
    out = []
    for name in sorted(prog.threadprivate):
        if not prog.copies_may_differ(name):
            continue  # never stored: every copy holds its initializer
        if any(
            _may_read_persisted(name, use, func, ast, by_node) for use, func, ast in prog.uses(name)
        ):
            out.append(name)
    return out


def _may_read_persisted(
    name: str, use: c_ast.ID, func: c_ast.FuncDef, ast: c_ast.FileAST, by_node: dict
) -> bool:
    parents = file_info(ast).parents
    if _only_stores(use, parents) or _shadowed(name, use, func):
        return False
    node = parents.get(id(use))
    while node is not None and not isinstance(node, c_ast.FuncDef):
        team = by_node.get(id(node))
        if team is not None:
            return name not in clause_names(team.clauses.copyin)
        node = parents.get(id(node))
    return func.decl.name != "main"


def _only_stores(use: c_ast.ID, parents: dict[int, c_ast.Node]) -> bool:
    """``use`` is the root of a plain assignment's target: ``x = e``, ``x[k] = e``."""
    child, parent = use, parents.get(id(use))
    while isinstance(parent, c_ast.ArrayRef) and parent.name is child:
        child, parent = parent, parents.get(id(parent))
    return isinstance(parent, c_ast.Assignment) and parent.op == "=" and parent.lvalue is child


def _shadowed(name: str, use: c_ast.ID, func: c_ast.FuncDef) -> bool:
    """``use`` names a parameter of ``func``, or a local declared at the top of its body
    before it (randlc's ``double *x`` is not EP's threadprivate ``x``)."""
    if name in param_names(func):
        return True
    line = use.coord.line if use.coord else 0
    return any(
        isinstance(d, c_ast.Decl) and d.name == name and d.coord and d.coord.line < line
        for d in func.body.block_items or []
    )

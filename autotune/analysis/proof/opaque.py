"""Where a pointer the proof cannot follow comes from, said in the reason.

A pointer returned by a function whose body is not among the program's files may
point anywhere (``polybench_alloc_data`` when ``polybench.c`` is not given, an
allocation helper in ``util.c``), so every loop using two such pointers is kept. The
reason then names the function, so that the user knows which file to give with
``--extra-source`` (or to compile in the same command under the build hook).
"""

from __future__ import annotations

from pycparser import c_ast

from autotune.analysis.allocators import TABLE as ALLOCATOR_TABLE
from autotune.analysis.names import call_name
from autotune.analysis.proof.facts import Ref
from autotune.analysis.proof.program import Program

MAX_NAMED = 3


def unknown_origins(refs: list[Ref], prog: Program) -> str:
    """``"u and v may come from new_field(), ..."`` for references whose objects are
    unknown and whose pointer some assignment in the program takes from a call of a
    function not among its files; "" when there is none."""
    names: list[str] = []
    funcs: list[str] = []
    for r in refs:
        if r.objects is not None or not r.name or r.name in names:
            continue
        found = [f for f in (_callee(s.node) for s in prog.var_stores.get(r.name, [])) if f]
        unknown = [f for f in found if f not in prog.funcs and f not in ALLOCATOR_TABLE]
        if unknown:
            names.append(r.name)
            funcs.extend(f for f in unknown if f not in funcs)
    if not funcs:
        return ""
    who = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    calls = ", ".join(f"{f}()" for f in funcs[:MAX_NAMED])
    return (
        f"{who} may come from {calls}, whose definition is not among the program's files "
        "(give its file with --extra-source)"
    )


def _callee(node: c_ast.Node | None) -> str | None:
    """The function called by an assigned value, through casts (``(double *) f(n)``)."""
    while isinstance(node, c_ast.Cast):
        node = node.expr
    return call_name(node) if isinstance(node, c_ast.FuncCall) else None

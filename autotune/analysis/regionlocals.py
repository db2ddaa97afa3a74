"""What a scalar the parallel region declares stands for where the body walk reads it.

A local of the region with an initializer (``int k = i * n;``) and never assigned
there, or one declared without a value and set once (``int c; c = x + y * nx;``, as
Rodinia writes an index), is its expression: subscripts built from it keep their loop
variables, and the footprint stays exact.
"""

from __future__ import annotations

from pycparser import c_ast

from autotune.analysis.astutil import decl_ids, walk, written_names
from autotune.analysis.symbols import Scope


class RegionLocals:
    """The region's declarations and plain assignments, read once."""

    def __init__(self, region: c_ast.Node) -> None:
        self.decls: set[int] = decl_ids(region)
        self.written: set[str] = written_names(region)
        self.sets: dict[str, list[c_ast.Assignment]] = {}
        for n in walk(region):
            if isinstance(n, c_ast.Assignment) and isinstance(n.lvalue, c_ast.ID):
                self.sets.setdefault(n.lvalue.name, []).append(n)

    def include(self, body: c_ast.Node) -> None:
        """An inlined function's locals count as the region's (their initializers)."""
        self.decls |= decl_ids(body)

    def definition(
        self, scope: Scope, name: str, decl: c_ast.Decl | None, kind: str
    ) -> tuple[c_ast.Node, c_ast.Node] | None:
        """(the expression ``name`` stands for, the node it is read at), else None."""
        if (
            decl is None
            or kind != "local"
            or id(decl) not in self.decls
            or not isinstance(decl.type, c_ast.TypeDecl)
        ):
            return None
        writes = scope.writes(name, "local")
        if decl.init is not None:
            # never assigned in the region: the function may reuse the name elsewhere
            # (``for (int k ...)`` before the region) without harm
            if writes == 0 or name not in self.written:
                return decl.init, decl
            return None
        sets = self.sets.get(name, [])
        if writes == 1 and len(sets) == 1 and sets[0].op == "=":
            return sets[0].rvalue, sets[0]
        return None

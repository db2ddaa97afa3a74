"""What an array reference in a loop body refers to, and its subscripts as expressions.

Helpers of the body walk (``body.py``): the array a base expression names
(a variable, an inlined parameter's alias, a struct member), and each
subscript built as an ``Expr`` or, when it is not evaluable, why not and
whether it is a CSR-style data-dependent loop variable.
"""

from __future__ import annotations

from collections.abc import Callable

from pycparser import c_ast

from autotune.analysis import exprs
from autotune.analysis.exprs import Expr, Symbolic
from autotune.analysis.loopnode import Ctx
from autotune.analysis.symbols import ArrayInfo, struct_member_type


def array_of(
    base: c_ast.Node, ctx: Ctx, at: c_ast.Node, referenced: set[str]
) -> tuple[str, ArrayInfo | None]:
    """(name, shape) of the array ``base`` names; None when it is not a known array."""
    if isinstance(base, c_ast.ID):
        referenced.add(base.name)
        if base.name in ctx.aliases:
            return ctx.aliases[base.name]
        if ctx.depth > 0 and ctx.scope.find_decl(base.name, at)[1] == "param":
            return base.name, None
        return base.name, ctx.scope.array(base.name, at)
    if isinstance(base, c_ast.StructRef) and isinstance(base.name, c_ast.ID):
        decl, _ = ctx.scope.find_decl(base.name.name, at)
        referenced.add(base.name.name)
        if decl is None:
            return exprs.to_c_node(base), None
        t = struct_member_type(ctx.scope, decl.type, base.field.name)
        text = exprs.to_c_node(base)
        if t is None:
            return text, None
        return text, ctx.scope.array_from_type(text, t, None, "member")
    return exprs.to_c_node(base), None


def subscripts(
    nodes: list[c_ast.Node], ctx: Ctx, moved: bool, build: Callable[[c_ast.Node], Expr]
) -> tuple[list[Expr | None], str, str | None]:
    """Each subscript as an Expr (None when not evaluable), why not, the CSR variable.

    ``moved``: the base pointer is reassigned in the loop, so no subscript is
    evaluable against its declared start.
    """
    subs: list[Expr | None] = []
    why, csr = "", None
    for s in nodes:
        if moved:
            subs.append(None)
            continue
        try:
            subs.append(build(s))
        except Symbolic as exc:
            subs.append(None)
            why = why or exc.what
            csr = csr or csr_var(s, ctx)
    return subs, why, csr


def csr_var(s: c_ast.Node, ctx: Ctx) -> str | None:
    """The data-dependent loop variable ``s`` is (plus a constant), as in ``col[k]``."""
    if isinstance(s, c_ast.BinaryOp) and s.op in "+-" and isinstance(s.right, c_ast.Constant):
        s = s.left
    if isinstance(s, c_ast.ID) and s.name in ctx.loopvars and ctx.loopvars[s.name] is None:
        return ctx.prefix + s.name
    return None

"""A C expression as a symbolic ``Expr``: one ``NodeVisitor`` whose visits return values.

``build(node, resolve, sizeof)`` is what the analysis uses: constants fold,
names resolve through ``resolve`` (a number, a loop variable, an expression,
or ``Symbolic`` when unknown), and anything the trip-count algebra cannot hold
(an array element's value, a call, an unknown ``sizeof``) raises ``Symbolic``
saying what it was.
"""

from __future__ import annotations

from collections.abc import Callable

from pycparser import c_ast

from autotune.analysis.exprs import Expr, Symbolic, fold, parse_constant, to_c_node

INT_TYPES = {
    "char",
    "short",
    "int",
    "long",
    "unsigned",
    "signed",
    "size_t",
    "_Bool",
    "ssize_t",
    "ptrdiff_t",
    "int64_t",
    "int32_t",
    "uint64_t",
    "uint32_t",
}


class ExprBuilder(c_ast.NodeVisitor):
    """``visit(node)`` returns the node's Expr or raises Symbolic."""

    def __init__(
        self,
        resolve: Callable[[str], Expr],
        sizeof: Callable[[c_ast.Node], int | None] | None = None,
    ) -> None:
        self.resolve = resolve
        self.sizeof = sizeof

    def generic_visit(self, node: c_ast.Node) -> Expr:
        raise Symbolic(to_c_node(node))

    def visit_Constant(self, node: c_ast.Constant) -> Expr:
        return parse_constant(node)

    def visit_ID(self, node: c_ast.ID) -> Expr:
        return self.resolve(node.name)

    def visit_BinaryOp(self, node: c_ast.BinaryOp) -> Expr:
        left = self.visit(node.left)
        return fold(node.op, [left, self.visit(node.right)])

    def visit_UnaryOp(self, node: c_ast.UnaryOp) -> Expr:
        if node.op == "sizeof":
            size = self.sizeof(node.expr) if self.sizeof else None
            if size is None:
                raise Symbolic("sizeof of an unknown type")
            return size
        inner = self.visit(node.expr)
        if node.op == "-":
            return fold("neg", [inner])
        if node.op == "+":
            return inner
        if node.op in ("!", "~"):
            return fold(node.op, [inner])
        raise Symbolic(f"operator {node.op}")

    def visit_Cast(self, node: c_ast.Cast) -> Expr:
        inner = self.visit(node.expr)
        names = _cast_names(node.to_type)
        if names and set(names) & INT_TYPES:
            return fold("int", [inner])
        return inner

    def visit_TernaryOp(self, node: c_ast.TernaryOp) -> Expr:
        parts = [self.visit(node.cond), self.visit(node.iftrue), self.visit(node.iffalse)]
        return fold("?", parts)

    def visit_ExprList(self, node: c_ast.ExprList) -> Expr:
        if len(node.exprs) == 1:
            return self.visit(node.exprs[0])
        raise Symbolic(to_c_node(node))

    def visit_ArrayRef(self, node: c_ast.ArrayRef) -> Expr:
        raise Symbolic(f"{to_c_node(node)} (array value)")

    def visit_FuncCall(self, node: c_ast.FuncCall) -> Expr:
        raise Symbolic(f"{to_c_node(node)} (call)")


def build(
    node: c_ast.Node,
    resolve: Callable[[str], Expr],
    sizeof: Callable[[c_ast.Node], int | None] | None = None,
) -> Expr:
    """Turn a pycparser expression into an ``Expr``; raise ``Symbolic`` if impossible."""
    return ExprBuilder(resolve, sizeof).visit(node)


def _cast_names(typename: c_ast.Node) -> list[str]:
    t = getattr(typename, "type", None)
    if isinstance(t, c_ast.TypeDecl) and isinstance(t.type, c_ast.IdentifierType):
        return list(t.type.names)
    return []

"""gcc's atomic read-modify-write builtins whose result is not used.

``__atomic_fetch_add(&hits, 1, __ATOMIC_SEQ_CST);`` as a statement of its own (what
C11's ``atomic_fetch_add(&hits, 1)`` expands to; ``__sync_fetch_and_add(&hits, 1)`` in
older codes) does what ``#pragma omp atomic`` ``hits += 1`` does: any order of such
updates leaves one result. Its value, the counter as one thread found it, follows the
order threads arrive (a slot handed out), so a call whose result is used stays an
effect, as does every other atomic builtin (load, store, exchange, compare-exchange).
"""

from __future__ import annotations

import re

from pycparser import c_ast

from autotune.analysis.proof.program import Program

_OPS = "add|sub|or|and|xor"
_RMW = re.compile(
    rf"^(?:__sync_fetch_and_(?P<a>{_OPS})|__sync_(?P<b>{_OPS})_and_fetch"
    rf"|__atomic_fetch_(?P<c>{_OPS})|__atomic_(?P<d>{_OPS})_fetch"
    rf"|__c11_atomic_fetch_(?P<e>{_OPS}))$"
)
_ASSIGN = {"add": "+=", "sub": "-=", "or": "|=", "and": "&=", "xor": "^="}


def rmw_update(
    prog: Program, node: c_ast.FuncCall, name: str, args: list[c_ast.Node]
) -> c_ast.Assignment | None:
    """The update ``*ptr op= value`` the call makes, when it is a read-modify-write
    builtin whose result is unused; else None."""
    m = _RMW.match(name)
    if m is None or len(args) < 2 or id(node) not in statement_calls(prog):
        return None
    op = _ASSIGN[next(g for g in m.groups() if g)]
    target = args[0]
    while isinstance(target, c_ast.Cast):
        target = target.expr
    if isinstance(target, c_ast.UnaryOp) and target.op == "&":
        lvalue = target.expr
    else:
        lvalue = c_ast.UnaryOp("*", args[0], coord=node.coord)
    return c_ast.Assignment(op, lvalue, args[1], coord=node.coord)


def statement_calls(prog: Program) -> set[int]:
    """ids of the program's calls made as statements (their value discarded)."""
    key = ("statement_calls",)
    if key not in prog.memo:
        finder = _StatementCalls()
        for unit in prog.units:
            finder.visit(unit)
        prog.memo[key] = finder.found
    return prog.memo[key]


class _StatementCalls(c_ast.NodeVisitor):
    """Collects calls in statement position, also cast to void."""

    def __init__(self) -> None:
        self.found: set[int] = set()
        self.blocks: set[int] = set()  # compounds that are statements, not ({ ... }) values

    def _statement(self, stmt: c_ast.Node | None) -> None:
        while isinstance(stmt, c_ast.Cast):
            stmt = stmt.expr
        if isinstance(stmt, c_ast.FuncCall):
            self.found.add(id(stmt))
        elif isinstance(stmt, c_ast.Compound):
            self.blocks.add(id(stmt))

    def visit_FuncDef(self, node: c_ast.FuncDef) -> None:
        self.blocks.add(id(node.body))
        self.generic_visit(node)

    def visit_Compound(self, node: c_ast.Compound) -> None:
        items = list(node.block_items or [])
        if id(node) not in self.blocks:
            items = items[:-1]  # a statement expression's last item is its value
        for item in items:
            self._statement(item)
        self.generic_visit(node)

    def visit_If(self, node: c_ast.If) -> None:
        self._statement(node.iftrue)
        self._statement(node.iffalse)
        self.generic_visit(node)

    def visit_For(self, node: c_ast.For | c_ast.While | c_ast.DoWhile | c_ast.Label) -> None:
        self._statement(node.stmt)
        self.generic_visit(node)

    visit_While = visit_DoWhile = visit_Label = visit_For  # each governs one statement

    def visit_Case(self, node: c_ast.Case | c_ast.Default) -> None:
        for item in node.stmts or []:
            self._statement(item)
        self.generic_visit(node)

    visit_Default = visit_Case
